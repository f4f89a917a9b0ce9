package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.operator.DryRunReport;
import dev.converge.operator.DryRunReport.Change;
import dev.converge.operator.DryRunReport.Entry;
import dev.converge.operator.DryRunReport.FieldChange;
import dev.converge.operator.DryRunReport.Outcome;
import dev.converge.operator.LeaderElection;
import dev.converge.operator.Operator;
import dev.converge.reconcile.Result;
import dev.converge.status.ConditionStatus;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A dry-run pass shows what a new version of an operator would change, and changes nothing: 200
 * primaries converged by a real run, then a version that adds a label to every ConfigMap it writes,
 * run as a dry run, reports exactly that label on each of the 200, reports the one write the API
 * server would refuse as refused, and leaves every object, Event and Lease on the API server as it
 * was (resourceVersions compared with a snapshot). Over the converged cluster a pass reports no
 * change.
 */
@ExtendWith(LocalClusterExtension.class)
class DryRunPassIT {

  private static final int COUNT = 200;
  private static final String LABEL = "dryrun-team";
  private static final String LEASE = "dry-run-it";
  private static final Duration CONVERGE = Duration.ofMinutes(3);

  @Group("dryrun.it.converge.dev")
  @Version("v1")
  public static class DryWidget extends CustomResource<WidgetSpec, WidgetStatus>
      implements Namespaced {}

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    TestCrds.install(cluster, DryWidget.class);
  }

  @Test
  void aPassReportsWhatWouldChangeAndPersistsNothing(
      LocalCluster cluster, KubernetesClient client, TestNamespace ns) {
    // The controller manager publishes the namespace's kube-root-ca.crt on its own time; the
    // ConfigMaps are counted below with it.
    await("the namespace's root CA ConfigMap")
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                client.configMaps().inNamespace(ns.name()).withName("kube-root-ca.crt").get()
                    != null);
    for (int i = 0; i < COUNT; i++) {
      client.resource(widget(ns.name(), "w-" + i, "blue")).create();
    }
    // Its data makes no valid label value: fine today, refused once the label carries it.
    client.resource(widget(ns.name(), "refused-0", "not a label value!")).create();

    // The version that runs today: no label.
    try (KubernetesClient operatorClient = cluster.newClient();
        Operator real = operator(operatorClient, ns.name(), false, null)) {
      real.start();
      await("every widget ready")
          .atMost(CONVERGE)
          .pollInterval(Duration.ofSeconds(1))
          .until(() -> readyCount(client, ns.name()) == COUNT + 1);
    }
    Map<String, String> before = snapshot(client, ns.name());
    assertThat(before).containsKey("ConfigMap w-0").containsKey("Lease " + LEASE);
    assertThat(before.get("Event")).as("Events of the real run").isNotEmpty();
    assertThat(client.configMaps().inNamespace(ns.name()).list().getItems())
        .hasSize(COUNT + 1 + 1); // and the namespace's kube-root-ca.crt

    // The new version, as a dry run: every ConfigMap gets the label with the widget's data.
    DryRunReport report;
    try (KubernetesClient operatorClient = cluster.newClient()) {
      report =
          operator(operatorClient, ns.name(), true, w -> w.getSpec().getData())
              .dryRunPass(CONVERGE);
    }

    assertThat(report.reconciled()).isEqualTo(COUNT + 1);
    List<Entry> configMapChanges =
        report.changes().stream().filter(e -> e.kind().equals("ConfigMap")).toList();
    assertThat(configMapChanges).hasSize(COUNT);
    for (Entry entry : configMapChanges) {
      assertThat(entry.namespace()).isEqualTo(ns.name());
      assertThat(entry.verb()).isEqualTo("apply");
      assertThat(entry.changes())
          .as("changes of %s", entry.object())
          .containsExactly(
              new FieldChange(Change.ADDED, "metadata.labels." + LABEL, null, "\"blue\""));
    }
    assertThat(configMapChanges.stream().map(Entry::name).collect(Collectors.toSet()))
        .isEqualTo(IntStream.range(0, COUNT).mapToObj(i -> "w-" + i).collect(Collectors.toSet()));
    assertThat(report.refusals()).hasSize(1);
    Entry refused = report.refusals().get(0);
    assertThat(refused.object()).isEqualTo("ConfigMap " + ns.name() + "/refused-0");
    assertThat(refused.refusal().code()).isEqualTo(422);
    assertThat(refused.refusal().reason()).isEqualTo("Invalid");
    assertThat(refused.refusal().message()).contains("metadata.labels").contains("not a label");
    assertThat(refused.changes()).isEmpty();
    // The real run would then set Reconciled=False on the widget: a status write, shown too.
    List<Entry> others =
        report.changes().stream().filter(e -> !e.kind().equals("ConfigMap")).toList();
    assertThat(others).hasSize(1);
    assertThat(others.get(0).object()).isEqualTo("DryWidget " + ns.name() + "/refused-0");
    assertThat(others.get(0).subresource()).isEqualTo("status");
    assertThat(others.get(0).changes())
        .extracting(FieldChange::path)
        .anyMatch(p -> p.startsWith("status.conditions[") && p.endsWith(".reason"));
    assertThat(report.wouldBeRefused()).isEqualTo(1);
    assertThat(report.failures()).isEmpty();
    assertThat(report.text())
        .contains(
            "ConfigMap " + ns.name() + "/w-7 (apply)\n  + metadata.labels." + LABEL + ": blue")
        .contains("would be refused: 422 Invalid");
    assertThat(report.json()).contains("\"schema\" : \"" + DryRunReport.SCHEMA + "\"");

    // Nothing persisted: no object, Event or Lease written (resourceVersions as before).
    assertThat(snapshot(client, ns.name())).isEqualTo(before);
    assertThat(
            client
                .configMaps()
                .inNamespace(ns.name())
                .withName("w-0")
                .get()
                .getMetadata()
                .getLabels())
        .doesNotContainKey(LABEL);

    // Over the converged cluster, the version that runs today changes nothing.
    DryRunReport converged;
    try (KubernetesClient operatorClient = cluster.newClient()) {
      converged = operator(operatorClient, ns.name(), true, null).dryRunPass(CONVERGE);
    }
    assertThat(converged.reconciled()).isEqualTo(COUNT + 1);
    assertThat(converged.changes()).isEmpty();
    assertThat(converged.refusals()).isEmpty();
    assertThat(converged.wouldChange()).isZero();
    assertThat(converged.unchanged()).isEqualTo(2 * (COUNT + 1)); // widgets and ConfigMaps
    assertThat(converged.entries())
        .allSatisfy(e -> assertThat(e.outcome()).isEqualTo(Outcome.UNCHANGED));
    assertThat(snapshot(client, ns.name())).isEqualTo(before);
  }

  /**
   * The operator: one ConfigMap per widget by server-side apply (with the label when {@code label}
   * says so), an Event and the Ready condition; it asks to be reconciled again in 30 s, which a
   * pass must not wait for. With leader election, which a dry run must not take.
   */
  private static Operator operator(
      KubernetesClient client, String ns, boolean dryRun, Function<DryWidget, String> label) {
    return Operator.builder(client)
        .name("dry-run-it")
        .namespace(ns)
        .workers(4)
        .dryRun(dryRun)
        .leaderElection(LeaderElection.onLease(ns, LEASE))
        .controller(
            ControllerBuilder.forPrimary(DryWidget.class)
                .build(
                    (widget, context) -> {
                      ConfigMapBuilder child =
                          new ConfigMapBuilder()
                              .withNewMetadata()
                              .withName(widget.getMetadata().getName())
                              .withNamespace(ns)
                              .addToLabels("app", widget.getMetadata().getName())
                              .endMetadata()
                              .addToData("value", widget.getSpec().getData());
                      if (label != null) {
                        child.editMetadata().addToLabels(LABEL, label.apply(widget)).endMetadata();
                      }
                      context
                          .client()
                          .resource(child.build())
                          .fieldManager("dry-run-it")
                          .forceConflicts()
                          .serverSideApply();
                      context.events().normal(widget, "Applied", "ConfigMap applied");
                      Widgets.setReady(context, widget, ConditionStatus.TRUE, "Reconciled", "ok");
                      return Result.requeueAfter(Duration.ofSeconds(30));
                    }))
        .build();
  }

  private static DryWidget widget(String ns, String name, String data) {
    DryWidget widget = new DryWidget();
    widget.getMetadata().setName(name);
    widget.getMetadata().setNamespace(ns);
    WidgetSpec spec = new WidgetSpec();
    spec.setData(data);
    widget.setSpec(spec);
    return widget;
  }

  private static long readyCount(KubernetesClient client, String ns) {
    return client.resources(DryWidget.class).inNamespace(ns).list().getItems().stream()
        .filter(Widgets::isReady)
        .count();
  }

  /**
   * What the API server holds in the namespace: each ConfigMap's, widget's and Lease's
   * resourceVersion, and the Events' names and resourceVersions under one key.
   */
  private static Map<String, String> snapshot(KubernetesClient client, String ns) {
    Map<String, String> state = new TreeMap<>();
    client.configMaps().inNamespace(ns).list().getItems().stream()
        .forEach(c -> put(state, "ConfigMap", c));
    client.resources(DryWidget.class).inNamespace(ns).list().getItems().stream()
        .forEach(w -> put(state, "DryWidget", w));
    client.resources(Lease.class).inNamespace(ns).list().getItems().stream()
        .forEach(l -> put(state, "Lease", l));
    state.put(
        "Event",
        client.v1().events().inNamespace(ns).list().getItems().stream()
            .map(e -> e.getMetadata().getName() + "@" + e.getMetadata().getResourceVersion())
            .sorted()
            .collect(Collectors.joining(",")));
    return state;
  }

  private static void put(Map<String, String> state, String kind, HasMetadata object) {
    state.put(
        kind + " " + object.getMetadata().getName(), object.getMetadata().getResourceVersion());
  }
}
