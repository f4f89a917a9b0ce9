package dev.converge.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.webhooks.internal.GeneratedCertificate;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A certificate read from files, as a mounted Secret provides it, is served over real TLS and
 * replaced when the files change; an unreadable change keeps the previous one.
 */
class CertificateReloadTest {

  @Test
  void aRenewedCertificateIsServedWithoutARestart(@TempDir Path dir) throws Exception {
    GeneratedCertificate first =
        GeneratedCertificate.create(List.of("127.0.0.1"), Duration.ofDays(1));
    GeneratedCertificate second =
        GeneratedCertificate.create(List.of("127.0.0.1"), Duration.ofDays(1));
    Path crt = dir.resolve("tls.crt");
    Path key = dir.resolve("tls.key");
    Files.writeString(crt, first.certificatePem());
    Files.writeString(key, first.serving().privateKeyPem());

    try (ServingCertificate files = ServingCertificate.fromFiles(crt, key, Duration.ofMillis(50));
        WebhookServer server =
            WebhookServer.builder(Webhooks.builder().build())
                .bindAddress("127.0.0.1")
                .port(0)
                .certificate(files)
                .start()) {
      // A new client context per call: a resumed TLS session would show the old certificate.
      String[] trustsBoth = {first.caBundle().get(), second.caBundle().get()};
      assertThat(served(server.port(), trustsBoth)).isEqualTo(certificate(first.certificatePem()));

      // Half-written: the certificate changed, the key not yet. The old pair is still served.
      Files.writeString(crt, second.certificatePem());
      Awaitility.await()
          .during(Duration.ofMillis(300))
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(
              () ->
                  assertThat(served(server.port(), trustsBoth))
                      .isEqualTo(certificate(first.certificatePem())));

      Files.writeString(key, second.serving().privateKeyPem());
      Awaitility.await()
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(
              () ->
                  assertThat(served(server.port(), trustsBoth))
                      .isEqualTo(certificate(second.certificatePem())));
    }
  }

  @Test
  void aKeyThatDoesNotBelongToTheCertificateIsRefusedNamingTheFiles(@TempDir Path dir)
      throws Exception {
    Path crt = dir.resolve("tls.crt");
    Path key = dir.resolve("tls.key");
    Files.writeString(crt, "not a certificate");
    Files.writeString(key, "not a key");
    assertThatThrownBy(() -> ServingCertificate.fromFiles(crt, key, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(crt.toString())
        .hasMessageContaining("no CERTIFICATE block");
  }

  private static X509Certificate served(int port, String[] caPems) throws Exception {
    SSLContext tls = trusting(caPems);
    HttpsURLConnection connection =
        (HttpsURLConnection)
            java.net.URI.create("https://127.0.0.1:" + port + "/healthz").toURL().openConnection();
    connection.setSSLSocketFactory(tls.getSocketFactory());
    try {
      assertThat(connection.getResponseCode()).isEqualTo(200);
      return (X509Certificate) connection.getServerCertificates()[0];
    } finally {
      connection.disconnect();
    }
  }

  private static SSLContext trusting(String... caPems) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    for (int i = 0; i < caPems.length; i++) {
      store.setCertificateEntry("ca" + i, certificate(caPems[i]));
    }
    TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
    factory.init(store);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }

  private static X509Certificate certificate(String pem) throws Exception {
    return (X509Certificate)
        CertificateFactory.getInstance("X.509")
            .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
  }
}
