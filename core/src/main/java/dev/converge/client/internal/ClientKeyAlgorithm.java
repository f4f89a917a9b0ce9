package dev.converge.client.internal;

import io.fabric8.kubernetes.client.Config;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Optional;

/**
 * Fills in {@code clientKeyAlgo} for a kubeconfig whose client key is an unencrypted PKCS#8 PEM
 * ({@code BEGIN PRIVATE KEY}), which does not name its algorithm in the header: fabric8 then
 * assumes RSA and fails on an EC key ("Invalid DER: object is not integer"), while kubectl reads
 * the same file fine. Other key formats are left to fabric8. Call {@link #detect} on a {@code
 * Config} read from a kubeconfig before building the client; the local control plane of Converge's
 * tests writes such keys.
 */
public final class ClientKeyAlgorithm {

  private static final String PKCS8_HEADER = "-----BEGIN PRIVATE KEY-----";

  private ClientKeyAlgorithm() {}

  /**
   * Sets the client key algorithm of {@code config} when it is unset and the key is PKCS#8 RSA or
   * EC. A key that cannot be read here, or of another format, leaves {@code config} as it was, so
   * that fabric8 reports the problem itself when it loads the key.
   *
   * @param config a configuration read from a kubeconfig, changed in place
   */
  public static void detect(Config config) {
    if (config.getClientKeyAlgo() != null && !config.getClientKeyAlgo().isBlank()) {
      return;
    }
    pem(config).flatMap(ClientKeyAlgorithm::algorithmOf).ifPresent(config::setClientKeyAlgo);
  }

  private static Optional<String> pem(Config config) {
    try {
      if (config.getClientKeyData() != null) {
        return Optional.of(
            new String(
                Base64.getMimeDecoder().decode(config.getClientKeyData()),
                StandardCharsets.US_ASCII));
      }
      if (config.getClientKeyFile() != null) {
        return Optional.of(
            Files.readString(Path.of(config.getClientKeyFile()), StandardCharsets.US_ASCII));
      }
    } catch (IllegalArgumentException | java.io.IOException e) {
      // Not readable here; fabric8 reports the real problem when it loads the key itself.
    }
    return Optional.empty();
  }

  /**
   * The algorithm of the first unencrypted PKCS#8 key in {@code pem}, when it is RSA or EC.
   *
   * @param pem the text of a PEM file, possibly holding certificates and other keys too
   * @return {@code "RSA"} or {@code "EC"}, fabric8's names for {@code clientKeyAlgo}; empty when
   *     there is no such key or it is of another algorithm
   */
  public static Optional<String> algorithmOf(String pem) {
    int start = pem.indexOf(PKCS8_HEADER);
    if (start < 0) {
      return Optional.empty();
    }
    int end = pem.indexOf("-----END PRIVATE KEY-----", start);
    if (end < 0) {
      return Optional.empty();
    }
    byte[] der = Base64.getMimeDecoder().decode(pem.substring(start + PKCS8_HEADER.length(), end));
    for (String algorithm : new String[] {"RSA", "EC"}) {
      try {
        KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
        return Optional.of(algorithm);
      } catch (GeneralSecurityException notThisOne) {
        // try the next algorithm
      }
    }
    return Optional.empty();
  }
}
