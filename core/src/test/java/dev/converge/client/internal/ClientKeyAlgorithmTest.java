package dev.converge.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class ClientKeyAlgorithmTest {

  private static String pkcs8Pem(String algorithm) throws Exception {
    byte[] der =
        KeyPairGenerator.getInstance(algorithm).generateKeyPair().getPrivate().getEncoded();
    return "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END PRIVATE KEY-----\n";
  }

  @Test
  void recognisesEcAndRsaPkcs8Keys() throws Exception {
    assertThat(ClientKeyAlgorithm.algorithmOf(pkcs8Pem("EC"))).contains("EC");
    assertThat(ClientKeyAlgorithm.algorithmOf(pkcs8Pem("RSA"))).contains("RSA");
  }

  @Test
  void leavesHeadersThatNameTheirAlgorithmToFabric8() {
    assertThat(
            ClientKeyAlgorithm.algorithmOf(
                "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----"))
        .isEmpty();
  }

  @Test
  void setsTheAlgorithmOnAConfigFromKeyDataOnlyWhenUnset() throws Exception {
    String data =
        Base64.getEncoder().encodeToString(pkcs8Pem("EC").getBytes(StandardCharsets.US_ASCII));
    Config config = new ConfigBuilder().withClientKeyData(data).build();
    config.setClientKeyAlgo(null);
    ClientKeyAlgorithm.detect(config);
    assertThat(config.getClientKeyAlgo()).isEqualTo("EC");

    Config explicit = new ConfigBuilder().withClientKeyData(data).withClientKeyAlgo("RSA").build();
    ClientKeyAlgorithm.detect(explicit);
    assertThat(explicit.getClientKeyAlgo()).isEqualTo("RSA");
  }
}
