package ${package};

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ${package}.api.${kind};
import ${package}.api.${kind}Status;
import ${package}.controller.${kind}Controller;
import dev.converge.owner.OwnerReferences;
import dev.converge.status.Conditions;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import dev.converge.testing.operator.RunningOperator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator on a real local control plane, authorized only by the shipped ClusterRole (as its
 * ServiceAccount): a ${kind} becomes a ready Deployment, and goes through its finalizer.
 */
@ExtendWith(LocalClusterExtension.class)
class ${kind}OperatorIT {

  static final Duration CONVERGE = Duration.ofSeconds(60);

  /**
   * Garbage collection of the children of a kind whose CRD this test run installed waits until
   * kube-controller-manager refreshes its discovery: tens of seconds, more on a busy machine.
   */
  static final Duration COLLECTED = Duration.ofMinutes(3);

  static final String SERVICE_ACCOUNT = "system:serviceaccount:${artifactId}:${artifactId}";

  @Test
  void a${kind}RunsItsPodsAndIsCleanedUpWhenDeleted(KubernetesClient admin, TestNamespace ns,
      LocalCluster cluster) throws IOException {
    applyShippedRbac(admin);
    try (RunningOperator operator = RunningOperator.on(cluster)
        .userAgent(${kind}Operator.NAME + "/test")
        .impersonating(SERVICE_ACCOUNT, "system:serviceaccounts", "system:serviceaccounts:${artifactId}")
        .crds(${kind}.class)
        .namespace(ns.name())
        .start((client, meters) -> ${kind}Operator.create(client, meters, ns.name()))) {
      // The shipped sample, as `kubectl apply -f samples/` creates it: the API server checks it
      // against the generated CRD.
      ${kind} sample = admin.resources(${kind}.class)
          .load(Path.of("samples", "${kindLower}.yaml").toFile()).item();
      sample.getMetadata().setNamespace(ns.name());
      admin.resource(sample).create();
      String name = sample.getMetadata().getName();

      await("${kind} " + name + " Ready").atMost(CONVERGE).untilAsserted(() -> {
        ${kind} ${kindLower} = admin.resources(${kind}.class).inNamespace(ns.name()).withName(name).get();
        assertThat(${kindLower}.getMetadata().getFinalizers()).contains(${kind}Controller.FINALIZER);
        assertThat(${kindLower}.getStatus()).isNotNull();
        assertThat(Conditions.isTrue(${kindLower}.getStatus().conditions(), ${kind}Status.READY)).isTrue();
      });
      ${kind} ${kindLower} = admin.resources(${kind}.class).inNamespace(ns.name()).withName(name).get();
      Deployment deployment = admin.apps().deployments().inNamespace(ns.name()).withName(name).get();
      assertThat(deployment.getStatus().getReadyReplicas()).isEqualTo(2);
      assertThat(OwnerReferences.isControlledBy(deployment, ${kindLower})).isTrue();

      admin.resource(${kindLower}).delete();
      await("${kind} and Deployment gone").atMost(COLLECTED).untilAsserted(() -> {
        assertThat(admin.resources(${kind}.class).inNamespace(ns.name()).withName(name).get()).isNull();
        assertThat(admin.apps().deployments().inNamespace(ns.name()).withName(name).get()).isNull();
      });
      // Events are written in the background: wait for it rather than read once.
      await("CleanedUp event").atMost(CONVERGE).untilAsserted(() ->
          assertThat(admin.v1().events().inNamespace(ns.name()).list().getItems())
              .anyMatch(e -> "CleanedUp".equals(e.getReason())));
    }
  }

  /**
   * The namespace and ServiceAccount of deploy/ and the ClusterRole the build generated from the
   * operator into target/deploy, as shipped.
   */
  static void applyShippedRbac(KubernetesClient admin) throws IOException {
    for (Path file : List.of(Path.of("deploy", "00-namespace.yaml"),
        Path.of("deploy", "10-serviceaccount.yaml"),
        Path.of("target", "deploy", "20-clusterrole.yaml"))) {
      try (InputStream in = Files.newInputStream(file)) {
        for (HasMetadata item : admin.load(in).items()) {
          admin.resource(item).fieldManager("${artifactId}-it").forceConflicts().serverSideApply();
        }
      }
    }
  }
}
