package dev.converge.testing.internal;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** The text of an administrator kubeconfig with embedded certificates. */
final class KubeconfigText {
  private KubeconfigText() {}

  static String of(String server, String caPem, Pki.Issued user) {
    return """
        apiVersion: v1
        kind: Config
        clusters:
        - name: converge-local
          cluster:
            server: %s
            certificate-authority-data: %s
        users:
        - name: converge-admin
          user:
            client-certificate-data: %s
            client-key-data: %s
        contexts:
        - name: converge-local
          context:
            cluster: converge-local
            user: converge-admin
            namespace: default
        current-context: converge-local
        """
        .formatted(server, b64(caPem), b64(user.certificatePem()), b64(user.privateKeyPem()));
  }

  private static String b64(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.UTF_8));
  }
}
