package dev.converge.testing.internal;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
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
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The certificates of one local cluster: a CA, the API server's serving certificate, an
 * administrator client certificate (organisation {@code system:masters}) and the service-account
 * token signing key. ECDSA P-256 keys, generated in milliseconds, except the client's (see {@link
 * #client}).
 */
public final class Pki {

  /** One key pair with its certificate, as PEM. */
  public record Issued(
      String certificatePem,
      String privateKeyPem,
      X509Certificate certificate,
      PrivateKey privateKey) {}

  private static final Duration VALIDITY = Duration.ofDays(7);
  private final SecureRandom random = new SecureRandom();
  private final KeyPair caKeys;
  private final X509Certificate caCert;
  private final KeyPair serviceAccountKeys;

  public Pki() {
    try {
      caKeys = newKeyPair();
      X500Name caName =
          new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, "converge-local-ca").build();
      X509v3CertificateBuilder builder = builder(caName, caName, caKeys);
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      builder.addExtension(
          Extension.keyUsage,
          true,
          new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature));
      builder.addExtension(
          Extension.subjectKeyIdentifier,
          false,
          new JcaX509ExtensionUtils().createSubjectKeyIdentifier(caKeys.getPublic()));
      caCert = sign(builder);
      serviceAccountKeys = newKeyPair();
    } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
      throw new IllegalStateException("cannot create the local cluster's certificates", e);
    }
  }

  /** The CA certificate as PEM. */
  public String caPem() {
    return pem(caCert);
  }

  /** The CA private key as PKCS#8 PEM (kube-controller-manager signs CSRs with it). */
  public String caKeyPem() {
    return pkcs8(caKeys);
  }

  /** The service-account token signing key, private part. */
  public String serviceAccountPrivateKeyPem() {
    return pkcs8(serviceAccountKeys);
  }

  /** The service-account token signing key, public part. */
  public String serviceAccountPublicKeyPem() {
    return pem(serviceAccountKeys.getPublic());
  }

  /** A serving certificate for the given DNS names and IP addresses. */
  public Issued serving(String commonName, List<String> dnsNames, List<String> ipAddresses) {
    try {
      KeyPair keys = newKeyPair();
      X509v3CertificateBuilder builder = builder(caSubject(), subject(commonName, List.of()), keys);
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      builder.addExtension(
          Extension.keyUsage,
          true,
          new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
      builder.addExtension(
          Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
      List<GeneralName> names = new ArrayList<>();
      dnsNames.forEach(n -> names.add(new GeneralName(GeneralName.dNSName, n)));
      for (String ip : ipAddresses) {
        names.add(
            new GeneralName(
                GeneralName.iPAddress,
                new org.bouncycastle.asn1.DEROctetString(InetAddress.getByName(ip).getAddress())));
      }
      builder.addExtension(
          Extension.subjectAlternativeName,
          false,
          new GeneralNames(names.toArray(GeneralName[]::new)));
      X509Certificate cert = sign(builder);
      return new Issued(pem(cert), pkcs8(keys), cert, keys.getPrivate());
    } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
      throw new IllegalStateException("cannot issue a serving certificate for " + commonName, e);
    }
  }

  /**
   * A client certificate: the API server reads the user from CN and the groups from O. Its key is
   * RSA: fabric8's client reads an RSA PKCS#8 key from a kubeconfig without being told the
   * algorithm, which it does not do for an EC key.
   */
  public Issued client(String user, List<String> groups) {
    try {
      KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
      rsa.initialize(2048, random);
      KeyPair keys = rsa.generateKeyPair();
      X509v3CertificateBuilder builder = builder(caSubject(), subject(user, groups), keys);
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
      builder.addExtension(
          Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
      X509Certificate cert = sign(builder);
      return new Issued(pem(cert), pkcs8(keys), cert, keys.getPrivate());
    } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
      throw new IllegalStateException("cannot issue a client certificate for " + user, e);
    }
  }

  /** Writes a PEM string to a file readable only by its owner. */
  public static Path write(Path file, String pem) {
    try {
      Files.writeString(file, pem);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private X500Name caSubject() {
    return X500Name.getInstance(caCert.getSubjectX500Principal().getEncoded());
  }

  private static X500Name subject(String commonName, List<String> organisations) {
    X500NameBuilder name = new X500NameBuilder(BCStyle.INSTANCE);
    organisations.forEach(o -> name.addRDN(BCStyle.O, o));
    return name.addRDN(BCStyle.CN, commonName).build();
  }

  private X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(
        issuer,
        new BigInteger(64, random).abs().add(BigInteger.ONE),
        Date.from(now.minus(Duration.ofHours(1))),
        Date.from(now.plus(VALIDITY)),
        subject,
        keys.getPublic());
  }

  private X509Certificate sign(X509v3CertificateBuilder builder)
      throws OperatorCreationException, GeneralSecurityException {
    return new JcaX509CertificateConverter()
        .getCertificate(
            builder.build(
                new JcaContentSignerBuilder("SHA256withECDSA").build(caKeys.getPrivate())));
  }

  private KeyPair newKeyPair() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"), random);
    return generator.generateKeyPair();
  }

  private static String pem(Object object) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static String pkcs8(KeyPair keys) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(new JcaPKCS8Generator(keys.getPrivate(), null));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }
}
