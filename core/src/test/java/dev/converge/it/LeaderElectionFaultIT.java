package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.converge.builder.ControllerBuilder;
import dev.converge.operator.LeaderElection;
import dev.converge.operator.LeadershipLoss;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorState;
import dev.converge.predicate.EventPredicate;
import dev.converge.reconcile.Result;
import dev.converge.status.ConditionStatus;
import dev.converge.testing.ClusterFaults;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TcpProxy;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Leader election under real network faults, with a TCP proxy between one replica and the API
 * server: a leader that can no longer renew must stop reconciling before a standby can take the
 * Lease (never two leaders), and may rejoin once the network heals; a leader that stops releases
 * the Lease only after its reconciles have ended.
 */
@ExtendWith(LocalClusterExtension.class)
class LeaderElectionFaultIT {

  @Group("leaderfault.it.converge.dev")
  @Version("v1")
  public static class FaultWidget extends CustomResource<WidgetSpec, WidgetStatus>
      implements Namespaced {}

  private static final String LEASE = "leader-fault-it";
  // Ratios as the defaults (15 s / 10 s / 2 s), shorter so the test is quick.
  private static final Duration LEASE_DURATION = Duration.ofSeconds(6);
  private static final Duration RENEW_DEADLINE = Duration.ofSeconds(4);
  private static final Duration RETRY_PERIOD = Duration.ofMillis(800);

  private final List<AutoCloseable> closeLast = new ArrayList<>();
  private final Map<String, String> handledBy = new ConcurrentHashMap<>();

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    TestCrds.install(cluster, FaultWidget.class);
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = closeLast.size() - 1; i >= 0; i--) {
      closeLast.get(i).close();
    }
  }

  private <T extends AutoCloseable> T closing(T resource) {
    closeLast.add(resource);
    return resource;
  }

  private Operator operator(KubernetesClient client, TestNamespace ns, String identity) {
    return closing(
        Operator.builder(client)
            .name("leader-fault-it")
            .namespace(ns.name())
            .leaderElection(
                LeaderElection.onLease(ns.name(), LEASE)
                    .withIdentity(identity)
                    .withTimings(LEASE_DURATION, RENEW_DEADLINE, RETRY_PERIOD))
            .afterLeadershipLoss(LeadershipLoss.REJOIN)
            .controller(
                ControllerBuilder.forPrimary(FaultWidget.class)
                    .withPredicate(EventPredicate.generationChanged())
                    .build(
                        (widget, context) -> {
                          handledBy.put(widget.getMetadata().getName(), identity);
                          Widgets.setReady(
                              context,
                              widget,
                              ConditionStatus.TRUE,
                              "Reconciled",
                              "by " + identity);
                          return Result.done();
                        }))
            .build());
  }

  private static FaultWidget widget(String name) {
    FaultWidget w = new FaultWidget();
    w.getMetadata().setName(name);
    w.setSpec(new WidgetSpec());
    return w;
  }

  /** When each operator was seen leading, polled every 5 ms. */
  private static final class Timeline implements AutoCloseable {
    private final ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor();
    private final Map<String, Long> lastRunning = new ConcurrentHashMap<>();
    private final Map<String, Long> firstRunningAfterStart = new ConcurrentHashMap<>();
    private final ScheduledFuture<?> polling;

    Timeline(Map<String, Operator> operators) {
      long start = System.nanoTime();
      polling =
          poller.scheduleAtFixedRate(
              () ->
                  operators.forEach(
                      (name, op) -> {
                        if (op.state() == OperatorState.RUNNING) {
                          long now = System.nanoTime() - start;
                          lastRunning.put(name, now);
                          firstRunningAfterStart.putIfAbsent(name, now);
                        }
                      }),
              0,
              5,
              TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
      polling.cancel(false);
      poller.shutdownNow();
    }
  }

  @Test
  void aLeaderCutOffFromTheApiServerStopsBeforeTheStandbyLeadsAndRejoinsWhenHealed(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    assumeTrue(cluster.faults().isPresent(), "needs a local control plane to inject faults");
    ClusterFaults faults = cluster.faults().orElseThrow();
    TcpProxy proxy = closing(faults.proxyToApiServer());
    KubernetesClient viaProxy =
        closing(new KubernetesClientBuilder().withConfig(cluster.configVia(proxy)).build());
    KubernetesClient direct = closing(cluster.newClient());

    Operator first = operator(viaProxy, ns, "first");
    first.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> first.state() == OperatorState.RUNNING);
    Operator second = operator(direct, ns, "second");
    second.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> second.health().ready());
    admin.resource(widget("before")).create();
    await().atMost(Duration.ofSeconds(30)).until(() -> "first".equals(handledBy.get("before")));

    // A partition: the leader's requests hang, nothing is refused.
    Timeline timeline = closing(new Timeline(Map.of("first", first, "second", second)));
    await().atMost(Duration.ofSeconds(1)).until(() -> timeline.lastRunning.containsKey("first"));
    long stalledAt = System.nanoTime();
    proxy.stall();

    await().atMost(Duration.ofSeconds(60)).until(() -> second.state() == OperatorState.RUNNING);
    Duration takeOver = Duration.ofNanos(System.nanoTime() - stalledAt);
    timeline.close();
    long firstLastLed = timeline.lastRunning.get("first");
    long secondFirstLed = timeline.firstRunningAfterStart.get("second");
    System.out.printf(
        "leader cut off: old leader stopped %d ms before the standby led;"
            + " take-over %d ms after the stall (lease %d s, renew deadline %d s)%n",
        (secondFirstLed - firstLastLed) / 1_000_000,
        takeOver.toMillis(),
        LEASE_DURATION.toSeconds(),
        RENEW_DEADLINE.toSeconds());
    assertThat(firstLastLed)
        .as("the old leader stopped reconciling before the standby led")
        .isLessThan(secondFirstLed);
    assertThat(first.state()).isIn(OperatorState.LEADERSHIP_LOST, OperatorState.STANDBY);

    admin.resource(widget("during")).create();
    await().atMost(Duration.ofSeconds(30)).until(() -> "second".equals(handledBy.get("during")));

    // Healed: the old leader stands by again, live, and leads once the other one stops.
    proxy.heal();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> first.state() == OperatorState.STANDBY && first.health().live());
    second.stop();
    await().atMost(Duration.ofSeconds(30)).until(() -> first.state() == OperatorState.RUNNING);
    admin.resource(widget("after")).create();
    await().atMost(Duration.ofSeconds(30)).until(() -> "first".equals(handledBy.get("after")));
  }

  @Test
  void theLeaseIsReleasedOnlyAfterRunningReconcilesHaveEnded(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    CountDownLatch reconciling = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    KubernetesClient client = closing(cluster.newClient());
    Operator stubborn =
        closing(
            Operator.builder(client)
                .name("leader-fault-it")
                .namespace(ns.name())
                .leaderElection(
                    LeaderElection.onLease(ns.name(), LEASE)
                        .withIdentity("stubborn")
                        .withTimings(LEASE_DURATION, RENEW_DEADLINE, RETRY_PERIOD))
                .controller(
                    ControllerBuilder.forPrimary(FaultWidget.class)
                        .build(
                            (widget, context) -> {
                              reconciling.countDown();
                              // user code that ignores interruption (a blocking library call, say)
                              while (true) {
                                try {
                                  finish.await();
                                  return Result.done();
                                } catch (InterruptedException ignored) {
                                  // keeps waiting
                                }
                              }
                            }))
                .build());
    stubborn.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> stubborn.state() == OperatorState.RUNNING);
    admin.resource(widget("slow")).create();
    await().atMost(Duration.ofSeconds(30)).until(() -> reconciling.getCount() == 0);

    assertThat(stubborn.stop(Duration.ofMillis(200)))
        .as("the reconcile had to be interrupted")
        .isFalse();
    assertThat(holder(admin))
        .as("not released while a reconcile of this leader still runs")
        .isEqualTo("stubborn");
    finish.countDown();
  }

  private static String holder(KubernetesClient client) {
    Lease lease = client.leases().withName(LEASE).get();
    return lease == null ? null : lease.getSpec().getHolderIdentity();
  }
}
