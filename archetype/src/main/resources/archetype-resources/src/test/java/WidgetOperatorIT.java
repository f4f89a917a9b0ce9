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
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The operator on a real local control plane: a Widget becomes a ready Deployment, and goes. */
@ExtendWith(LocalClusterExtension.class)
class WidgetOperatorIT {

  static final Duration CONVERGE = Duration.ofSeconds(60);

  @Test
  void aWidgetRunsItsPodsAndIsCleanedUpWhenDeleted(KubernetesClient admin, TestNamespace ns,
      LocalCluster cluster) {
    try (RunningOperator operator = RunningOperator.on(cluster)
        .userAgent(WidgetOperator.NAME + "/test")
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
      assertThat(admin.v1().events().inNamespace(ns.name()).list().getItems())
          .anyMatch(e -> "CleanedUp".equals(e.getReason()));
    }
  }
}
