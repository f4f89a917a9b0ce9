package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.operator.LeaderElection;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorHealth;
import dev.converge.operator.OperatorState;
import dev.converge.predicate.EventPredicate;
import dev.converge.reconcile.Result;
import dev.converge.status.ConditionStatus;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two operator instances in one JVM share a Lease: only the holder reconciles, the other takes over
 * when the holder stops, and an instance whose lease is taken stops reconciling and says so.
 */
@ExtendWith(LocalClusterExtension.class)
class LeaderElectionIT {

  @Group("leader.it.converge.dev")
  @Version("v1")
  public static class LeaderWidget extends CustomResource<WidgetSpec, WidgetStatus>
      implements Namespaced {}

  private static final String LEASE = "leader-it";

  private final List<Operator> operators = new ArrayList<>();
  private final List<KubernetesClient> clients = new ArrayList<>();
  private final Map<String, AtomicInteger> reconcilesBy = new ConcurrentHashMap<>();

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    TestCrds.install(cluster, LeaderWidget.class);
  }

  @AfterEach
  void stopAll() {
    operators.forEach(Operator::stop);
    clients.forEach(KubernetesClient::close);
  }

  private Operator operator(
      LocalCluster cluster, TestNamespace ns, String identity, Runnable onLost) {
    KubernetesClient client = cluster.newClient();
    clients.add(client);
    Operator operator =
        Operator.builder(client)
            .name("leader-it")
            .namespace(ns.name())
            // Short timings keep the test quick; the defaults are 15 s / 10 s / 2 s.
            .leaderElection(
                LeaderElection.onLease(ns.name(), LEASE)
                    .withIdentity(identity)
                    .withTimings(
                        Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(500)))
            .onLeadershipLost(onLost)
            .controller(
                ControllerBuilder.forPrimary(LeaderWidget.class)
                    .withPredicate(EventPredicate.generationChanged())
                    .build(
                        (widget, context) -> {
                          reconcilesBy
                              .computeIfAbsent(identity, k -> new AtomicInteger())
                              .incrementAndGet();
                          Widgets.setReady(
                              context,
                              widget,
                              ConditionStatus.TRUE,
                              "Reconciled",
                              "by " + identity,
                              s -> s.setHandledBy(identity));
                          return Result.done();
                        }))
            .build();
    operators.add(operator);
    return operator;
  }

  private static LeaderWidget widget(String name) {
    LeaderWidget w = new LeaderWidget();
    w.getMetadata().setName(name);
    w.setSpec(new WidgetSpec());
    return w;
  }

  private static String handledBy(KubernetesClient client, String name) {
    LeaderWidget live = client.resources(LeaderWidget.class).withName(name).get();
    return live == null || live.getStatus() == null ? null : live.getStatus().getHandledBy();
  }

  private static String holder(KubernetesClient client) {
    Lease lease = client.leases().withName(LEASE).get();
    return lease == null ? null : lease.getSpec().getHolderIdentity();
  }

  @Test
  void theStandbyTakesOverWhenTheLeaderStops(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    Operator first = operator(cluster, ns, "first", () -> {});
    Operator second = operator(cluster, ns, "second", () -> {});
    first.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> first.state() == OperatorState.RUNNING);
    second.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> second.health().ready());
    assertThat(second.state()).isEqualTo(OperatorState.STANDBY);
    assertThat(first.health().ready()).isTrue();
    assertThat(holder(admin)).isEqualTo("first");

    admin.resource(widget("one")).create();
    await().atMost(Duration.ofSeconds(30)).until(() -> "first".equals(handledBy(admin, "one")));
    assertThat(reconcilesBy).doesNotContainKey("second");

    assertThat(first.stop()).isTrue(); // releases the lease

    await().atMost(Duration.ofSeconds(30)).until(() -> second.state() == OperatorState.RUNNING);
    assertThat(holder(admin)).isEqualTo("second");
    assertThat(second.health().leader()).contains("second");
    admin.resource(widget("two")).create();
    await().atMost(Duration.ofSeconds(30)).until(() -> "second".equals(handledBy(admin, "two")));
    // The new leader reconciles everything it finds, including what the old one handled.
    await().atMost(Duration.ofSeconds(30)).until(() -> "second".equals(handledBy(admin, "one")));
  }

  @Test
  void aLeaderWhoseLeaseIsTakenStopsReconcilingAndReportsIt(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) throws Exception {
    CountDownLatch lost = new CountDownLatch(1);
    Operator operator = operator(cluster, ns, "victim", lost::countDown);
    operator.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> operator.state() == OperatorState.RUNNING);
    admin.resource(widget("before")).create();
    await().atMost(Duration.ofSeconds(30)).until(() -> "victim".equals(handledBy(admin, "before")));

    // Someone else takes the lease (as after a long pause of this process).
    admin
        .leases()
        .withName(LEASE)
        .edit(
            lease -> {
              lease.getSpec().setHolderIdentity("thief");
              lease.getSpec().setRenewTime(ZonedDateTime.now(ZoneOffset.UTC));
              lease.getSpec().setLeaseDurationSeconds(600);
              return lease;
            });

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> operator.state() == OperatorState.LEADERSHIP_LOST);
    assertThat(lost.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    OperatorHealth health = operator.health();
    assertThat(health.live()).isFalse();
    assertThat(health.ready()).isFalse();
    assertThat(health.problems()).anyMatch(p -> p.contains("lost the leader lease"));

    int reconciles = reconcilesBy.get("victim").get();
    admin.resource(widget("after")).create();
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(5))
        .until(
            () ->
                handledBy(admin, "after") == null
                    && reconcilesBy.get("victim").get() == reconciles);
  }
}
