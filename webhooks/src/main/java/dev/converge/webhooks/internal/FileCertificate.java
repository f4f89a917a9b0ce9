package dev.converge.webhooks.internal;

import dev.converge.webhooks.ServingCertificate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.X509ExtendedKeyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A certificate and key read from PEM files and read again when their content changes. A Secret
 * volume replaces its files by swapping a symbolic link, so the content is compared, not the
 * modification time of the path.
 */
public final class FileCertificate implements ServingCertificate {

  private static final Logger LOG = LoggerFactory.getLogger(FileCertificate.class);

  private final Path certificateFile;
  private final Path keyFile;
  private final SwappableKeyManager keyManager;
  private final ScheduledExecutorService checker;
  private volatile String certificateText;
  private volatile String keyText;
  private String refusedContent = "";

  private FileCertificate(
      Path certificateFile,
      Path keyFile,
      KeyMaterial initial,
      String certificateText,
      String keyText,
      Duration checkEvery) {
    this.certificateFile = certificateFile;
    this.keyFile = keyFile;
    this.keyManager = new SwappableKeyManager(initial.keyManager());
    this.certificateText = certificateText;
    this.keyText = keyText;
    this.checker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "converge-webhook-certificate-check");
              t.setDaemon(true);
              return t;
            });
    long millis = Math.max(10, checkEvery.toMillis());
    // check() handles its own failures, so the periodic task never ends exceptionally
    java.util.concurrent.ScheduledFuture<?> unused =
        checker.scheduleWithFixedDelay(this::check, millis, millis, TimeUnit.MILLISECONDS);
  }

  public static FileCertificate open(Path certificate, Path key, Duration checkEvery) {
    String certificateText = read(certificate);
    String keyText = read(key);
    KeyMaterial material;
    try {
      material = KeyMaterial.parse(certificateText, keyText);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "cannot use the serving certificate "
              + certificate
              + " with the key "
              + key
              + ": "
              + e.getMessage(),
          e);
    }
    LOG.info(
        "Serving certificate {} (subject {}, valid until {})",
        certificate,
        material.chain().get(0).getSubjectX500Principal().getName(),
        material.chain().get(0).getNotAfter().toInstant());
    return new FileCertificate(certificate, key, material, certificateText, keyText, checkEvery);
  }

  @Override
  public X509ExtendedKeyManager keyManager() {
    return keyManager;
  }

  @Override
  public Optional<String> caBundle() {
    Path ca = certificateFile.resolveSibling("ca.crt");
    if (!Files.isReadable(ca)) {
      return Optional.empty();
    }
    return Optional.of(read(ca));
  }

  @Override
  public String certificatePem() {
    return certificateText;
  }

  @Override
  public void close() {
    checker.shutdownNow();
  }

  private void check() {
    String certificate;
    String key;
    try {
      certificate = Files.readString(certificateFile);
      key = Files.readString(keyFile);
    } catch (IOException e) {
      LOG.warn(
          "Cannot read the serving certificate {} or key {}; serving the previous one: {}",
          certificateFile,
          keyFile,
          e.toString());
      return;
    }
    if ((certificate.equals(certificateText) && key.equals(keyText))
        || (certificate + key).equals(refusedContent)) {
      return;
    }
    try {
      KeyMaterial material = KeyMaterial.parse(certificate, key);
      keyManager.swap(material.keyManager());
      certificateText = certificate;
      keyText = key;
      LOG.info(
          "Serving certificate {} reloaded (subject {}, valid until {})",
          certificateFile,
          material.chain().get(0).getSubjectX500Principal().getName(),
          material.chain().get(0).getNotAfter().toInstant());
    } catch (RuntimeException e) {
      refusedContent = certificate + key;
      LOG.warn(
          "The serving certificate {} or key {} changed but cannot be used yet ({});"
              + " serving the previous one and checking again",
          certificateFile,
          keyFile,
          e.getMessage());
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + file.toAbsolutePath() + ": " + e, e);
    }
  }
}
