package dev.converge.faults;

import dev.converge.example.api.AppDeploymentCrd;
import dev.converge.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The operator as it ships: its CRD, Namespace, ServiceAccount, least-privilege ClusterRole and
 * leader-election Role from {@code example-operator/deploy}, and a kubeconfig holding a token of
 * that ServiceAccount (TLS verification on).
 */
final class ShippedOperator {

  static final String NAMESPACE = "app-operator";

  private ShippedOperator() {}

  /** Installs the CRD and the RBAC manifests; returns a token of the operator's account. */
  static String install(KubernetesClient admin) {
    AppDeploymentCrd.install(admin, Duration.ofSeconds(60));
    Path deploy =
        Path.of(System.getProperty("user.dir"))
            .resolveSibling("example-operator")
            .resolve("target")
            .resolve("deploy"); // the build generates the RBAC manifests there
    for (String file :
        List.of(
            "00-namespace.yaml",
            "10-serviceaccount.yaml",
            "20-clusterrole.yaml",
            "30-role-leader-election.yaml")) {
      try (InputStream in = Files.newInputStream(deploy.resolve(file))) {
        for (HasMetadata item : admin.load(in).items()) {
          admin.resource(item).fieldManager("fault-suite").forceConflicts().serverSideApply();
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + deploy.resolve(file), e);
      }
    }
    return admin
        .serviceAccounts()
        .inNamespace(NAMESPACE)
        .withName("app-operator")
        .tokenRequest(
            new TokenRequestBuilder().withNewSpec().withExpirationSeconds(7200L).endSpec().build())
        .getStatus()
        .getToken();
  }

  /**
   * A kubeconfig for the operator's account that reaches the API server at loopback {@code port}.
   */
  static Path kubeconfig(Path file, int port, String token, LocalCluster cluster) {
    String ca =
        Optional.ofNullable(cluster.config().getCaCertData())
            .orElseGet(
                () -> {
                  try {
                    return Base64.getEncoder()
                        .encodeToString(
                            Files.readAllBytes(Path.of(cluster.config().getCaCertFile())));
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                });
    String text =
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: local
          cluster:
            server: https://127.0.0.1:%d
            certificate-authority-data: %s
        users:
        - name: app-operator
          user:
            token: %s
        contexts:
        - name: app-operator
          context:
            cluster: local
            user: app-operator
        current-context: app-operator
        """
            .formatted(port, ca, token);
    try {
      return Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
