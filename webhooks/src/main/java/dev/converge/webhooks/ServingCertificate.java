package dev.converge.webhooks;

import dev.converge.webhooks.internal.FileCertificate;
import dev.converge.webhooks.internal.GeneratedCertificate;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The certificate the webhook server presents, and the CA bundle the API server must trust.
 *
 * <ul>
 *   <li>{@link #generate(List)}: a new CA and a serving certificate signed by it, made at start,
 *       for local runs and tests; its CA goes into the webhook configurations.
 *   <li>{@link #fromFiles(Path, Path, Duration)}: {@code tls.crt} and {@code tls.key} as a mounted
 *       Secret provides them (cert-manager's, for one), re-read when they change, so a renewed
 *       certificate is served without a restart.
 * </ul>
 */
public interface ServingCertificate extends AutoCloseable {

  /**
   * {@return the key manager the TLS handshakes use}; it always hands out the current certificate
   */
  X509ExtendedKeyManager keyManager();

  /** {@return the PEM of the CA that signed the serving certificate, when known} */
  Optional<String> caBundle();

  /** {@return the PEM of the certificate served now} */
  String certificatePem();

  /** Stops watching files; nothing for a generated certificate. */
  @Override
  void close();

  /**
   * A fresh CA and a serving certificate for {@code hosts}: IP addresses become IP SANs, the rest
   * DNS SANs (for a Service: {@code name.namespace.svc}). Valid for 30 days.
   *
   * @param hosts the host names and IP addresses the certificate names; at least one
   * @return the generated certificate, whose {@link #caBundle()} is the new CA
   */
  static ServingCertificate generate(List<String> hosts) {
    return GeneratedCertificate.create(hosts, Duration.ofDays(30));
  }

  /**
   * {@link #generate(List)} for {@code 127.0.0.1} and {@code localhost}.
   *
   * @return the generated certificate, whose {@link #caBundle()} is the new CA
   */
  static ServingCertificate generateForLoopback() {
    return generate(List.of("127.0.0.1", "localhost"));
  }

  /**
   * The certificate chain and private key in PEM files (PKCS#8, PKCS#1 or SEC1 keys), checked for
   * changes every {@code checkEvery}. A {@code ca.crt} beside the certificate (as cert-manager
   * writes it) is the {@link #caBundle()}. A change that cannot be read (a half-written file) keeps
   * the previous certificate and is logged; the next check tries again.
   *
   * @param certificate the PEM certificate chain, e.g. {@code tls.crt}
   * @param privateKey the PEM private key, e.g. {@code tls.key}
   * @param checkEvery how often the files are checked for changes
   * @return the certificate, watching its files until {@link #close()}
   * @throws IllegalArgumentException naming the file when the first read fails
   */
  static ServingCertificate fromFiles(Path certificate, Path privateKey, Duration checkEvery) {
    return FileCertificate.open(certificate, privateKey, checkEvery);
  }

  /**
   * {@code tls.crt} and {@code tls.key} of {@code directory}, where a {@code kubernetes.io/tls}
   * Secret is mounted (and cert-manager's {@code ca.crt} beside them), checked for changes every 30
   * seconds: {@link #fromFiles} with the names a Secret mount has.
   *
   * @param directory where the Secret is mounted
   * @return the certificate, re-read when the files change
   * @throws IllegalArgumentException naming the file when the first read fails
   */
  static ServingCertificate fromDirectory(Path directory) {
    return fromFiles(
        directory.resolve("tls.crt"), directory.resolve("tls.key"), Duration.ofSeconds(30));
  }

  /**
   * Generates a CA and a serving certificate for {@code hosts}, as {@link #generate} does, and
   * writes them into {@code directory} the way a mounted {@code kubernetes.io/tls} Secret holds
   * them ({@code tls.crt}, {@code tls.key}, {@code ca.crt}): for a test of an operator that reads
   * its certificate with {@link #fromDirectory}.
   *
   * @param directory an existing directory; its three files are replaced
   * @param hosts the names and addresses the certificate is valid for
   * @return the CA's certificate (PEM), for the {@code caBundle} of a webhook configuration
   * @throws java.io.IOException when a file cannot be written
   */
  static String generateInto(Path directory, List<String> hosts) throws java.io.IOException {
    GeneratedCertificate generated = GeneratedCertificate.create(hosts, Duration.ofDays(30));
    String ca = generated.caBundle().orElseThrow();
    java.nio.file.Files.writeString(directory.resolve("tls.crt"), generated.certificatePem());
    java.nio.file.Files.writeString(
        directory.resolve("tls.key"), generated.serving().privateKeyPem());
    java.nio.file.Files.writeString(directory.resolve("ca.crt"), ca);
    return ca;
  }
}
