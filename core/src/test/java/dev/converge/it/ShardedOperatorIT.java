package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.operator.LeaderElection;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorState;
import dev.converge.predicate.EventPredicate;
import dev.converge.reconcile.Result;
import dev.converge.status.ConditionStatus;
import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Replicas of one sharded operator in one JVM share the widgets: each caches and reconciles the
 * widgets labelled for it, its children carry its label, objects move through a hand-over when a
 * replica joins and at once when one leaves, and no widget is ever reconciled by two replicas at
 * once. What the replicas did is read back from the API server (labels, status, children); the
 * overlap check uses the reconcilers' own record, which in one JVM is exact.
 */
@ExtendWith(LocalClusterExtension.class)
class ShardedOperatorIT {

  @Group("shard.it.converge.dev")
  @Version("v1")
  public static class ShardWidget extends CustomResource<WidgetSpec, WidgetStatus>
      implements Namespaced {}

  private static final String RING = "shard-it";
  private static final String SHARD_LABEL = "shard.converge.dev/" + RING;
  private static final String DRAIN_LABEL = "drain.shard.converge.dev/" + RING;

  private final Map<String, Operator> operators = new LinkedHashMap<>();
  private final List<KubernetesClient> clients = new ArrayList<>();
  private final Map<String, String> reconciling = new ConcurrentHashMap<>();
  private final List<String> overlaps = new CopyOnWriteArrayList<>();
  private final Map<String, AtomicInteger> reconcilesBy = new ConcurrentHashMap<>();

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    TestCrds.install(cluster, ShardWidget.class);
  }

  @AfterEach
  void stopAll() {
    operators.values().forEach(Operator::stop);
    clients.forEach(KubernetesClient::close);
  }

  private Operator replica(LocalCluster cluster, TestNamespace ns, String identity) {
    KubernetesClient client = cluster.newClient();
    clients.add(client);
    ConfigMapTestStrategy strategy = new ConfigMapTestStrategy();
    Operator operator =
        Operator.builder(client)
            .name("shard-it")
            .namespace(ns.name())
            .strategies(
                new StrategySelector(
                    Map.of(strategy.name(), strategy), StrategySelection.all(strategy.name())))
            .leaderElection(
                LeaderElection.onLease(ns.name(), RING)
                    .withIdentity(identity)
                    .withTimings(
                        Duration.ofSeconds(6), Duration.ofSeconds(4), Duration.ofMillis(500)))
            .sharded()
            .controller(
                ControllerBuilder.forPrimary(ShardWidget.class)
                    .withPredicate(EventPredicate.generationChanged())
                    .owns(ConfigMap.class)
                    .build((widget, context) -> reconcile(identity, widget, context)))
            .build();
    operators.put(identity, operator);
    return operator;
  }

  private Result reconcile(
      String identity, ShardWidget widget, dev.converge.reconcile.Context<ShardWidget> context) {
    String key = widget.getMetadata().getName();
    String other = reconciling.putIfAbsent(key, identity);
    if (other != null) {
      overlaps.add(key + " by " + identity + " while " + other);
    }
    try {
      reconcilesBy.computeIfAbsent(identity, k -> new AtomicInteger()).incrementAndGet();
      String data = widget.getSpec() == null ? null : widget.getSpec().getData();
      context.apply(
          new ConfigMapBuilder()
              .withNewMetadata()
              .withName(key)
              .withNamespace(widget.getMetadata().getNamespace())
              .endMetadata()
              .addToData("data", data == null ? "" : data)
              .build());
      Widgets.setReady(
          context,
          widget,
          ConditionStatus.TRUE,
          "Reconciled",
          "by " + identity,
          s -> s.setHandledBy(identity));
      return Result.done();
    } finally {
      reconciling.remove(key, identity);
    }
  }

  private static ShardWidget widget(String name, String data) {
    ShardWidget w = new ShardWidget();
    w.getMetadata().setName(name);
    WidgetSpec spec = new WidgetSpec();
    spec.setData(data);
    w.setSpec(spec);
    return w;
  }

  /** Widget name to the member its label names, read from the API server. */
  private static Map<String, String> assignment(KubernetesClient admin, TestNamespace ns) {
    Map<String, String> byName = new HashMap<>();
    for (ShardWidget w :
        admin.resources(ShardWidget.class).inNamespace(ns.name()).list().getItems()) {
      Map<String, String> labels = w.getMetadata().getLabels();
      byName.put(w.getMetadata().getName(), labels == null ? null : labels.get(SHARD_LABEL));
    }
    return byName;
  }

  /**
   * True when every widget is labelled for a live replica, not draining, handled by that replica
   * with {@code data}, and its ConfigMap holds {@code data} and carries the same label.
   */
  private static boolean converged(
      KubernetesClient admin, TestNamespace ns, Set<String> live, int count, String data) {
    List<ShardWidget> widgets =
        admin.resources(ShardWidget.class).inNamespace(ns.name()).list().getItems();
    if (widgets.size() != count) {
      return false;
    }
    Map<String, ConfigMap> maps =
        admin.configMaps().inNamespace(ns.name()).list().getItems().stream()
            .collect(Collectors.toMap(c -> c.getMetadata().getName(), c -> c));
    for (ShardWidget w : widgets) {
      Map<String, String> labels = w.getMetadata().getLabels();
      String member = labels == null ? null : labels.get(SHARD_LABEL);
      if (member == null || !live.contains(member) || labels.containsKey(DRAIN_LABEL)) {
        return false;
      }
      if (w.getStatus() == null || !member.equals(w.getStatus().getHandledBy())) {
        return false;
      }
      ConfigMap child = maps.get(w.getMetadata().getName());
      if (child == null
          || !data.equals(child.getData().get("data"))
          || !member.equals(child.getMetadata().getLabels().get(SHARD_LABEL))) {
        return false;
      }
    }
    return true;
  }

  @Test
  void replicasShareTheWidgetsAndHandThemOverWithoutOverlap(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    for (String id : List.of("alpha", "bravo", "charlie")) {
      replica(cluster, ns, id).start();
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> operators.values().stream().allMatch(o -> o.health().ready()));
    int count = 60;
    for (int i = 0; i < count; i++) {
      admin.resource(widget("w" + i, "v1")).inNamespace(ns.name()).create();
    }
    Set<String> three = Set.of("alpha", "bravo", "charlie");
    await().atMost(Duration.ofMinutes(2)).until(() -> converged(admin, ns, three, count, "v1"));

    // Each replica holds its own share in its cache, and only it: counted against the labels.
    Map<String, Long> shares =
        assignment(admin, ns).values().stream()
            .collect(Collectors.groupingBy(m -> m, Collectors.counting()));
    assertThat(shares.keySet()).containsExactlyInAnyOrderElementsOf(three);
    for (String id : three) {
      List<ShardWidget> cached = operators.get(id).caches().of(ShardWidget.class).list();
      assertThat(cached).hasSize(shares.get(id).intValue());
      assertThat(cached)
          .allSatisfy(w -> assertThat(w.getMetadata().getLabels()).containsEntry(SHARD_LABEL, id));
      assertThat(operators.get(id).caches().of(ConfigMap.class).list())
          .hasSize(shares.get(id).intValue());
    }

    // A fourth replica joins: some widgets move to it through a hand-over; a spec edit meanwhile
    // is not lost.
    Map<String, String> before = assignment(admin, ns);
    replica(cluster, ns, "delta").start();
    for (int i = 0; i < count; i++) {
      ShardWidget w =
          admin.resources(ShardWidget.class).inNamespace(ns.name()).withName("w" + i).get();
      w.getSpec().setData("v2");
      admin.resource(w).update();
    }
    Set<String> four = Set.of("alpha", "bravo", "charlie", "delta");
    await().atMost(Duration.ofMinutes(2)).until(() -> converged(admin, ns, four, count, "v2"));
    Map<String, String> after = assignment(admin, ns);
    long moved =
        after.entrySet().stream().filter(e -> !e.getValue().equals(before.get(e.getKey()))).count();
    assertThat(after.values()).contains("delta");
    assertThat(after.entrySet())
        .allSatisfy(
            e ->
                assertThat(
                        e.getValue().equals(before.get(e.getKey())) || e.getValue().equals("delta"))
                    .isTrue());
    assertThat(moved).isBetween(1L, (long) count / 2);

    // A replica leaves cleanly: its widgets go to the others at once, and are reconciled there.
    assertThat(operators.get("bravo").stop()).isTrue();
    operators.remove("bravo");
    Set<String> rest = Set.of("alpha", "charlie", "delta");
    for (int i = 0; i < count; i++) {
      ShardWidget w =
          admin.resources(ShardWidget.class).inNamespace(ns.name()).withName("w" + i).get();
      w.getSpec().setData("v3");
      admin.resource(w).update();
    }
    await().atMost(Duration.ofMinutes(2)).until(() -> converged(admin, ns, rest, count, "v3"));
    assertThat(overlaps).isEmpty();
    assertThat(operators.values())
        .allSatisfy(o -> assertThat(o.state()).isEqualTo(OperatorState.RUNNING));
  }
}
