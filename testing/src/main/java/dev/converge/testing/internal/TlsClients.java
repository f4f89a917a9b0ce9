package dev.converge.testing.internal;

import java.io.ByteArrayInputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/** JDK HTTP clients for the start-up health checks of the local control plane. */
final class TlsClients {
  private TlsClients() {}

  /** Trusts the cluster CA and presents the given client certificate. */
  static HttpClient mutual(String caPem, Pki.Issued clientCert) {
    try {
      char[] password = "converge".toCharArray();
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry(
          "client",
          clientCert.privateKey(),
          password,
          new Certificate[] {clientCert.certificate()});
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, password);

      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      X509Certificate ca =
          (X509Certificate)
              CertificateFactory.getInstance("X.509")
                  .generateCertificate(
                      new ByteArrayInputStream(caPem.getBytes(StandardCharsets.US_ASCII)));
      trust.setCertificateEntry("ca", ca);
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);

      SSLContext context = SSLContext.getInstance("TLS");
      context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
      return HttpClient.newBuilder()
          .version(
              HttpClient.Version
                  .HTTP_1_1) // the components refuse HTTP/2 from unknown clients (GOAWAY)
          .sslContext(context)
          .connectTimeout(Duration.ofSeconds(2))
          .build();
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException("cannot build the TLS client for the local API server", e);
    }
  }

  /**
   * Accepts any certificate. Used only for the {@code /healthz} of kube-controller-manager and
   * kube-scheduler on 127.0.0.1, which serve in-memory self-signed certificates.
   */
  static HttpClient trustingLoopback() {
    // An X509ExtendedTrustManager, so that JSSE does not add its own host-name check around it.
    TrustManager trustAll =
        new X509ExtendedTrustManager() {
          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

          @Override
          public void checkClientTrusted(
              X509Certificate[] chain, String authType, SSLEngine engine) {}

          @Override
          public void checkServerTrusted(
              X509Certificate[] chain, String authType, SSLEngine engine) {}

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        };
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {trustAll}, null);
      return HttpClient.newBuilder()
          .version(
              HttpClient.Version
                  .HTTP_1_1) // the components refuse HTTP/2 from unknown clients (GOAWAY)
          .sslContext(context)
          .connectTimeout(Duration.ofSeconds(2))
          .build();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot build the loopback health-check client", e);
    }
  }
}
