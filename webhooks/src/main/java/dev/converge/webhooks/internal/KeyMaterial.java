package dev.converge.webhooks.internal;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;

/** A certificate chain and its private key, read from and written as PEM. */
public record KeyMaterial(List<X509Certificate> chain, PrivateKey key) {

  private static final char[] NO_PASSWORD = new char[0];

  public KeyMaterial {
    chain = List.copyOf(chain);
    if (chain.isEmpty()) {
      throw new IllegalArgumentException("no certificate");
    }
  }

  /** Parses a PEM certificate chain and a PEM private key; the messages say what is missing. */
  public static KeyMaterial parse(String certificatePem, String keyPem) {
    List<X509Certificate> chain = new ArrayList<>();
    JcaX509CertificateConverter certificates = new JcaX509CertificateConverter();
    try (PEMParser parser = new PEMParser(new StringReader(certificatePem))) {
      for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
        if (o instanceof X509CertificateHolder holder) {
          chain.add(certificates.getCertificate(holder));
        }
      }
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException("the certificate is not valid PEM: " + e.getMessage(), e);
    }
    if (chain.isEmpty()) {
      throw new IllegalArgumentException("no CERTIFICATE block in the certificate PEM");
    }
    PrivateKey key = null;
    JcaPEMKeyConverter keys = new JcaPEMKeyConverter();
    try (PEMParser parser = new PEMParser(new StringReader(keyPem))) {
      for (Object o = parser.readObject(); o != null && key == null; o = parser.readObject()) {
        if (o instanceof PEMKeyPair pair) {
          key = keys.getKeyPair(pair).getPrivate();
        } else if (o instanceof PrivateKeyInfo info) {
          key = keys.getPrivateKey(info);
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("the private key is not valid PEM: " + e.getMessage(), e);
    }
    if (key == null) {
      throw new IllegalArgumentException(
          "no PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY block in the key PEM");
    }
    if (!belongsTogether(chain.get(0), key)) {
      throw new IllegalArgumentException(
          "the private key does not belong to the certificate "
              + chain.get(0).getSubjectX500Principal().getName()
              + " (a renewal half written, or files of two different pairs)");
    }
    return new KeyMaterial(chain, key);
  }

  /** Signs a few bytes with the key and checks them with the certificate's public key. */
  private static boolean belongsTogether(X509Certificate certificate, PrivateKey key) {
    String algorithm =
        switch (key.getAlgorithm()) {
          case "EC" -> "SHA256withECDSA";
          case "RSA" -> "SHA256withRSA";
          case "Ed25519", "EdDSA" -> "Ed25519";
          default -> null;
        };
    if (algorithm == null
        || !certificate.getPublicKey().getAlgorithm().equals(key.getAlgorithm())) {
      return algorithm == null;
    }
    try {
      byte[] probe = "converge-webhooks".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      java.security.Signature signer = java.security.Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(probe);
      byte[] signature = signer.sign();
      java.security.Signature verifier = java.security.Signature.getInstance(algorithm);
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(probe);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  /** A key manager that serves this chain. */
  public X509ExtendedKeyManager keyManager() {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("serving", key, NO_PASSWORD, chain.toArray(new Certificate[0]));
      // SunX509 names the entry by its key store alias in every instance, so a handshake that
      // straddles a certificate swap still finds "serving" in the new one.
      KeyManagerFactory factory = KeyManagerFactory.getInstance("SunX509");
      factory.init(store, NO_PASSWORD);
      for (KeyManager manager : factory.getKeyManagers()) {
        if (manager instanceof X509ExtendedKeyManager x509) {
          return x509;
        }
      }
      throw new IllegalStateException(
          "the JDK's PKIX key manager factory made no X509 key manager");
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot load the serving certificate into a key store", e);
    }
  }

  /** The chain as PEM. */
  public String certificatePem() {
    return pem(chain.toArray());
  }

  /** The private key as PKCS#8 PEM. */
  public String privateKeyPem() {
    try {
      return pem(new org.bouncycastle.openssl.jcajce.JcaPKCS8Generator(key, null).generate());
    } catch (org.bouncycastle.util.io.pem.PemGenerationException e) {
      throw new IllegalStateException("cannot write the private key as PEM", e);
    }
  }

  static String pem(Object... objects) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      for (Object o : objects) {
        writer.writeObject(o);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }
}
