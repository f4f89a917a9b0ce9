package dev.converge.webhooks.internal;

import dev.converge.webhooks.ServingCertificate;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.net.ssl.X509ExtendedKeyManager;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A CA made at start and a serving certificate it signed (ECDSA P-256, SHA-256). */
public final class GeneratedCertificate implements ServingCertificate {

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String caPem;
  private final KeyMaterial serving;
  private final X509ExtendedKeyManager keyManager;

  private GeneratedCertificate(String caPem, KeyMaterial serving) {
    this.caPem = caPem;
    this.serving = serving;
    this.keyManager = serving.keyManager();
  }

  public static GeneratedCertificate create(List<String> hosts, Duration validity) {
    if (hosts.isEmpty()) {
      throw new IllegalArgumentException(
          "a serving certificate needs at least one host name or IP");
    }
    try {
      KeyPair caKeys = newKeyPair();
      Instant now = Instant.now();
      Date notBefore = Date.from(now.minus(Duration.ofMinutes(5)));
      Date notAfter = Date.from(now.plus(validity));
      X500Name caName =
          new X500Name("CN=converge-webhooks-ca-" + Long.toHexString(RANDOM.nextLong()));
      JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder ca =
          new JcaX509v3CertificateBuilder(
                  caName, serial(), notBefore, notAfter, caName, caKeys.getPublic())
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
              .addExtension(
                  Extension.keyUsage,
                  true,
                  new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature))
              .addExtension(
                  Extension.subjectKeyIdentifier,
                  false,
                  extensions.createSubjectKeyIdentifier(caKeys.getPublic()));
      X509Certificate caCert = sign(ca, caKeys);

      KeyPair servingKeys = newKeyPair();
      List<GeneralName> names = new ArrayList<>();
      for (String host : hosts) {
        names.add(
            IPV4.matcher(host).matches() || host.contains(":")
                ? new GeneralName(
                    GeneralName.iPAddress,
                    new DEROctetString(InetAddress.getByName(host).getAddress()))
                : new GeneralName(GeneralName.dNSName, host));
      }
      X509v3CertificateBuilder leaf =
          new JcaX509v3CertificateBuilder(
                  caCert,
                  serial(),
                  notBefore,
                  notAfter,
                  new X500Name("CN=" + hosts.get(0)),
                  servingKeys.getPublic())
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
              .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
              .addExtension(
                  Extension.extendedKeyUsage,
                  false,
                  new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
              .addExtension(
                  Extension.subjectAlternativeName,
                  false,
                  new GeneralNames(names.toArray(new GeneralName[0])))
              .addExtension(
                  Extension.authorityKeyIdentifier,
                  false,
                  extensions.createAuthorityKeyIdentifier(caCert));
      X509Certificate servingCert = sign(leaf, caKeys);
      return new GeneratedCertificate(
          KeyMaterial.pem(caCert), new KeyMaterial(List.of(servingCert), servingKeys.getPrivate()));
    } catch (GeneralSecurityException
        | OperatorCreationException
        | UnknownHostException
        | org.bouncycastle.cert.CertIOException e) {
      throw new IllegalStateException(
          "cannot generate the webhook certificates: " + e.getMessage(), e);
    }
  }

  @Override
  public X509ExtendedKeyManager keyManager() {
    return keyManager;
  }

  @Override
  public Optional<String> caBundle() {
    return Optional.of(caPem);
  }

  @Override
  public String certificatePem() {
    return serving.certificatePem();
  }

  /** The serving certificate and its key, e.g. to write them where a server reads files. */
  public KeyMaterial serving() {
    return serving;
  }

  @Override
  public void close() {}

  private static KeyPair newKeyPair() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
    return generator.generateKeyPair();
  }

  private static BigInteger serial() {
    return new BigInteger(64, RANDOM).add(BigInteger.ONE);
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair issuer)
      throws OperatorCreationException, GeneralSecurityException {
    return new JcaX509CertificateConverter()
        .getCertificate(
            builder.build(
                new JcaContentSignerBuilder("SHA256withECDSA").build(issuer.getPrivate())));
  }
}
