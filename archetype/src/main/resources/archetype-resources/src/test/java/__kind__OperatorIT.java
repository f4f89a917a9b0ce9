package ${package};

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ${package}.api.Widget;
import ${package}.api.WidgetSpec;
import ${package}.api.WidgetStatus;
import ${package}.controller.WidgetController;
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
 * ServiceAccount): a Widget becomes a ready Deployment, and goes through its finalizer.
 */
@ExtendWith(LocalClusterExtension.class)
class WidgetOperatorIT {

  static final Duration CONVERGE = Duration.ofSeconds(60);

  static final String SERVICE_ACCOUNT = "system:serviceaccount:widget-operator:widget-operator";

  @Test
  void aWidgetRunsItsPodsAndIsCleanedUpWhenDeleted(KubernetesClient admin, TestNamespace ns,
      LocalCluster cluster) throws IOException {
    applyShippedRbac(admin);
    try (RunningOperator operator = RunningOperator.on(cluster)
        .userAgent(WidgetOperator.NAME + "/test")
        .impersonating(SERVICE_ACCOUNT, "system:serviceaccounts", "system:serviceaccounts:widget-operator")
        .crds(Widget.class)
        .namespace(ns.name())
        .start((client, meters) -> WidgetOperator.create(client, meters, ns.name()))) {
      admin.resource(Widget.of(ns.name(), "web", new WidgetSpec("nginx:1.27", 2))).create();

      await("Widget web Ready").atMost(CONVERGE).untilAsserted(() -> {
        Widget widget = admin.resources(Widget.class).inNamespace(ns.name()).withName("web").get();
        assertThat(widget.getMetadata().getFinalizers()).contains(WidgetController.FINALIZER);
        assertThat(widget.getStatus()).isNotNull();
        assertThat(Conditions.isTrue(widget.getStatus().conditions(), WidgetStatus.READY)).isTrue();
      });
      Widget widget = admin.resources(Widget.class).inNamespace(ns.name()).withName("web").get();
      Deployment deployment = admin.apps().deployments().inNamespace(ns.name()).withName("web").get();
      assertThat(deployment.getStatus().getReadyReplicas()).isEqualTo(2);
      assertThat(OwnerReferences.isControlledBy(deployment, widget)).isTrue();

      admin.resource(widget).delete();
      await("Widget and Deployment gone").atMost(CONVERGE).untilAsserted(() -> {
        assertThat(admin.resources(Widget.class).inNamespace(ns.name()).withName("web").get()).isNull();
        assertThat(admin.apps().deployments().inNamespace(ns.name()).withName("web").get()).isNull();
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
          admin.resource(item).fieldManager("widget-operator-it").forceConflicts().serverSideApply();
        }
      }
    }
  }
}
