package dev.converge.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.okhttp.OkHttpClientImpl;
import java.io.IOException;
import okhttp3.CipherSuite;
import okhttp3.Handshake;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The cipher suite the API server agrees to, read from the TLS handshake of a request sent by the
 * client's own OkHttp connection pool.
 */
@ExtendWith(LocalClusterExtension.class)
class CipherPreferenceIT {

  @Test
  void chacha20FirstIsWhatTheApiServerTakes(LocalCluster cluster) throws IOException {
    assertThat(handshake(cluster, CipherPreference.CHACHA20_FIRST).cipherSuite())
        .isEqualTo(CipherSuite.TLS_CHACHA20_POLY1305_SHA256);
  }

  @Test
  void theDefaultOrderGetsAesGcm(LocalCluster cluster) throws IOException {
    assertThat(handshake(cluster, CipherPreference.DEFAULT).cipherSuite().javaName())
        .contains("AES")
        .contains("GCM");
  }

  @ParameterizedTest
  @EnumSource(CipherPreference.class)
  void eitherOrderReadsFromTheApiServer(CipherPreference preference, LocalCluster cluster) {
    try (KubernetesClient client = client(cluster, preference)) {
      assertThat(client.namespaces().withName("default").get()).isNotNull();
    }
  }

  private static Handshake handshake(LocalCluster cluster, CipherPreference preference)
      throws IOException {
    try (KubernetesClient client = client(cluster, preference)) {
      OkHttpClientImpl http = (OkHttpClientImpl) client.getHttpClient();
      Request version =
          new Request.Builder().url(cluster.config().getMasterUrl() + "version").build();
      try (Response response = http.getOkHttpClient().newCall(version).execute()) {
        assertThat(response.handshake()).isNotNull();
        return response.handshake();
      }
    }
  }

  private static KubernetesClient client(LocalCluster cluster, CipherPreference preference) {
    return new KubernetesClientBuilder()
        .withHttpClientFactory(new PreferringOkHttpClientFactory(preference))
        .withConfig(cluster.config())
        .build();
  }
}
