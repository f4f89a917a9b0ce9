package dev.converge.example;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.operator.DryRunReport;
import dev.converge.operator.DryRunReport.Change;
import dev.converge.operator.DryRunReport.Entry;
import dev.converge.operator.DryRunReport.FieldChange;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import dev.converge.testing.operator.RunningOperator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The AppDeployment operator as a dry run (Deployments by server-side apply, Services by update):
 * over a converged namespace a pass would change nothing; after a user scaled an AppDeployment
 * while the operator was down, a pass shows the Deployment's {@code spec.replicas} that the
 * operator will change, and changes nothing on the API server.
 */
@ExtendWith(LocalClusterExtension.class)
class AppDeploymentDryRunPassIT {

  @Test
  void aPassShowsWhatTheOperatorWillDoAfterDowntime(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    ClusterState state = new ClusterState(admin, ns.name());
    try (RunningOperator operator = AppOperatorRun.start(cluster, ns.name())) {
      state.create("shop", "nginx:1.27", 0, null);
      state.create("blog", "nginx:1.27", 0, null);
      state.awaitRunning("shop", 0);
      state.awaitRunning("blog", 0);
      assertThat(operator.writes()).as("writes of the real run").isNotEmpty();
    }

    DryRunReport converged = AppOperatorRun.dryRunPass(cluster, ns.name(), b -> {});
    assertThat(converged.reconciled()).isEqualTo(2);
    assertThat(converged.changes()).as(converged.text()).isEmpty();
    assertThat(converged.refusals()).isEmpty();
    assertThat(converged.failures()).isEmpty();

    // While no operator runs, a user scales the shop up.
    state.editSpec("shop", s -> new AppDeploymentSpec(s.image(), 2, s.configMapName(), s.port()));
    Map<String, String> before = snapshot(admin, ns.name());

    DryRunReport report = AppOperatorRun.dryRunPass(cluster, ns.name(), b -> {});

    assertThat(report.reconciled()).isEqualTo(2);
    Entry deployment =
        report.changes().stream()
            .filter(e -> e.kind().equals("Deployment"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no Deployment change in\n" + report.text()));
    assertThat(deployment.object()).isEqualTo("Deployment " + ns.name() + "/shop");
    assertThat(deployment.verb()).isEqualTo("apply");
    assertThat(deployment.changes())
        .contains(new FieldChange(Change.CHANGED, "spec.replicas", "0", "2"));
    // Only the Deployment: the operator writes the status once the Deployment controller has
    // seen the new generation, which a dry run never brings.
    assertThat(report.changes()).as(report.text()).containsExactly(deployment);
    assertThat(report.wouldChange()).isEqualTo(1);
    assertThat(report.unchanged()).isEqualTo(2); // the two AppDeployments
    assertThat(report.text())
        .contains("Deployment " + ns.name() + "/shop (apply)\n")
        .contains("  ~ spec.replicas: 0 -> 2\n");

    assertThat(snapshot(admin, ns.name())).isEqualTo(before);
    assertThat(state.deployment("shop").orElseThrow().getSpec().getReplicas()).isZero();
  }

  /** The resourceVersion of every object the operator reads or writes, and the Events. */
  private static Map<String, String> snapshot(KubernetesClient admin, String ns) {
    Map<String, String> state = new TreeMap<>();
    Stream.<HasMetadata>concat(
            Stream.concat(
                admin.resources(AppDeployment.class).inNamespace(ns).list().getItems().stream(),
                admin.apps().deployments().inNamespace(ns).list().getItems().stream()),
            Stream.concat(
                admin.services().inNamespace(ns).list().getItems().stream(),
                admin.v1().events().inNamespace(ns).list().getItems().stream()))
        .forEach(
            o ->
                state.put(
                    o.getKind() + " " + o.getMetadata().getName(),
                    o.getMetadata().getResourceVersion()));
    return state;
  }
}
