package dev.converge.example;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every manifest the build puts into {@code target/deploy/} is accepted by a real API server
 * (server-side dry run: schema, field names and references are checked, nothing is stored).
 */
@ExtendWith(LocalClusterExtension.class)
class DeployManifestsIT {

  @Test
  void everyShippedManifestIsAValidObject(KubernetesClient admin) throws IOException {
    Path folder = Path.of("target", "deploy");
    List<Path> files;
    try (Stream<Path> listing = Files.list(folder)) {
      files = listing.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
    assertThat(files)
        .extracting(p -> p.getFileName().toString())
        .contains(
            "appdeployments.apps.converge.dev.yaml", "20-clusterrole.yaml", "40-deployment.yaml");

    // The CRD and the namespace first, for real, so that dry runs of namespaced objects resolve.
    List<HasMetadata> all = new ArrayList<>();
    for (Path file : files) {
      try (InputStream in = Files.newInputStream(file)) {
        all.addAll(admin.load(in).items());
      }
    }
    for (HasMetadata item : all) {
      if (item.getKind().equals("CustomResourceDefinition") || item.getKind().equals("Namespace")) {
        admin.resource(item).fieldManager("manifests-it").forceConflicts().serverSideApply();
      }
    }
    for (HasMetadata item : all) {
      HasMetadata accepted =
          admin
              .resource(item)
              .dryRun()
              .fieldManager("manifests-it")
              .forceConflicts()
              .serverSideApply();
      assertThat(accepted.getMetadata().getName()).isEqualTo(item.getMetadata().getName());
    }

    Deployment operator =
        all.stream()
            .filter(Deployment.class::isInstance)
            .map(Deployment.class::cast)
            .findFirst()
            .orElseThrow();
    var container = operator.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(container.getArgs()).contains("--sharded");
    assertThat(operator.getSpec().getReplicas()).isEqualTo(3);
    assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(operator.getSpec().getTemplate().getSpec().getServiceAccountName())
        .isEqualTo("app-operator");
  }
}
