package dev.converge.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.converge.testing.AuditLog;
import dev.converge.testing.ClusterFaults;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TcpProxy;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A leader that is frozen (SIGSTOP) or cut off from the API server past its Lease, while another
 * replica takes over, writes nothing once it wakes up: judged from kube-apiserver's audit log,
 * where each replica's requests carry its identity in the user agent.
 *
 * <p>Each round: the AppDeployment operator runs as two replicas on short election timings; every
 * app's ConfigMap changes at once, and once the leader is busy writing Deployments for that burst
 * it is frozen (or its connection stalled) with its workers in the middle of their reconciles; the
 * other replica acquires the Lease and starts writing, then the old leader resumes (or its
 * connections are reset and traffic flows again) and finds its reconciles where it left them. The
 * audit log must hold no write the old leader got accepted after the new leader's first accepted
 * write of the Lease. The rounds alternate the roles. {@code faults.fencing.rounds} and {@code
 * faults.fencing.stallRounds} set how many rounds of each kind run ({@code bin/fault-suite} runs 20
 * of each).
 */
@ExtendWith(LocalClusterExtension.class)
class LeaderFencingIT {

  private static final String LEASE = "app-operator";
  private static final int APPS = 60;
  private static final List<String> TIMINGS =
      List.of(
          "--leader-election-lease-duration",
          "4",
          "--leader-election-renew-deadline",
          "3",
          "--leader-election-retry-period",
          "1");

  /** Requests that write nothing: reviews answer a question, they store no object. */
  private static final Set<String> REVIEWS =
      Set.of(
          "selfsubjectaccessreviews",
          "subjectaccessreviews",
          "selfsubjectrulesreviews",
          "localsubjectaccessreviews",
          "tokenreviews");

  private record Round(
      String kind, String deposed, Duration takeover, List<AuditLog.Write> lateWrites) {}

  @Test
  void aDeposedLeaderHasNoWriteAcceptedAfterTheTakeover(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) throws Exception {
    assumeTrue(cluster.faults().isPresent(), "needs a local control plane to inject faults");
    Path auditFile =
        cluster
            .auditLog()
            .orElseThrow(
                () ->
                    new AssertionError(
                        "the local cluster runs without an audit log; start it with"
                            + " -Dconverge.cluster.audit=true (the fault suite's build does)"));
    AuditLog audit = new AuditLog(auditFile);
    ClusterFaults faults = cluster.faults().orElseThrow();
    int freezeRounds = Integer.getInteger("faults.fencing.rounds", 3);
    int stallRounds = Integer.getInteger("faults.fencing.stallRounds", 2);
    Path work = Files.createTempDirectory("converge-fencing-");
    String token = ShippedOperator.install(admin);
    AppWorld world = new AppWorld(admin, ns.name(), 7);
    world.create(APPS);
    ExecutorService bursts = Executors.newFixedThreadPool(8);

    List<Round> rounds = new ArrayList<>();
    try (TcpProxy proxyA = faults.proxyToApiServer();
        TcpProxy proxyB = faults.proxyToApiServer();
        OperatorReplica a = replica("fenced-a", proxyA, token, cluster, ns, work);
        OperatorReplica b = replica("fenced-b", proxyB, token, cluster, ns, work)) {
      Map<String, OperatorReplica> byId = Map.of(a.name(), a, b.name(), b);
      Map<String, TcpProxy> proxies = Map.of(a.name(), proxyA, b.name(), proxyB);
      a.start();
      b.start();
      try {
        for (int i = 0; i < freezeRounds + stallRounds; i++) {
          boolean freeze = i < freezeRounds;
          String leaderId = awaitHolder(admin, byId.keySet());
          OperatorReplica leader = byId.get(leaderId);
          OperatorReplica other = leaderId.equals(a.name()) ? b : a;
          Instant burstAt = Instant.now();
          List<Future<?>> burst = burst(admin, ns.name(), i, bursts);
          await("the leader " + leaderId + " writing for the burst")
              .atMost(Duration.ofSeconds(90))
              .until(
                  () ->
                      audit
                              .writes(
                                  w ->
                                      w.accepted()
                                          && notLease(w)
                                          && by(leaderId).test(w)
                                          && !w.received().isBefore(burstAt))
                              .size()
                          >= 5);

          Instant faultAt = Instant.now();
          if (freeze) {
            leader.freeze();
          } else {
            proxies.get(leaderId).stall();
          }
          await("the Lease taken over by " + other.name())
              .atMost(Duration.ofSeconds(90))
              .until(() -> other.name().equals(holder(admin).orElse("")));
          Instant takeover =
              audit
                  .firstAccepted(by(other.name()).and(LeaderFencingIT::lease), faultAt)
                  .orElseThrow(() -> new AssertionError("no Lease write by the new leader"))
                  .received();
          // The old leader stays cut off until the new one has written something of its own.
          await("the new leader " + other.name() + " writing")
              .atMost(Duration.ofSeconds(90))
              .until(
                  () ->
                      audit
                          .firstAccepted(by(other.name()).and(LeaderFencingIT::notLease), takeover)
                          .isPresent());
          if (freeze) {
            leader.resume();
          } else {
            // the partition ends with its connections reset, as after a long outage
            proxies.get(leaderId).cut();
            proxies.get(leaderId).heal();
          }
          Instant resumed = Instant.now();
          // It notices the loss, stops its workers and reports itself not live (the example
          // operator stops after losing the Lease; its kubelet would restart it).
          await("the deposed leader " + leaderId + " reporting the loss")
              .atMost(Duration.ofSeconds(90))
              .until(() -> !leader.reportsLive() && leader.workersAlive() == 0);
          // Everything the old leader sent before standing by is in the log once a later write is.
          Instant settled = Instant.now();
          await("a write recorded after the old leader stood by")
              .atMost(Duration.ofSeconds(90))
              .until(() -> audit.firstAccepted(by(other.name()), settled).isPresent());
          List<AuditLog.Write> late =
              audit.writes(
                  w ->
                      w.accepted()
                          && by(leaderId).test(w)
                          && !REVIEWS.contains(w.resource())
                          && !w.received().isBefore(takeover));
          leader.restart(); // as its kubelet would: it stands by for the next round
          rounds.add(
              new Round(
                  freeze ? "SIGSTOP" : "network stall",
                  leaderId,
                  Duration.between(faultAt, takeover),
                  late));
          System.out.printf(
              "fencing round %d (%s of %s): takeover %d ms after the fault, resumed %d ms after"
                  + " the takeover, %d write(s) of the deposed leader accepted after it%n",
              i + 1,
              freeze ? "SIGSTOP" : "network stall",
              leaderId,
              Duration.between(faultAt, takeover).toMillis(),
              Duration.between(takeover, resumed).toMillis(),
              late.size());
          for (Future<?> change : burst) {
            change.get(2, TimeUnit.MINUTES);
          }
        }
      } finally {
        bursts.shutdownNow();
      }
    }

    List<Long> takeovers = rounds.stream().map(r -> r.takeover().toMillis()).sorted().toList();
    System.out.printf(
        "fencing: %d rounds, median takeover %d ms after the fault, %d write(s) of a deposed"
            + " leader accepted after the takeover%n",
        rounds.size(),
        takeovers.get(takeovers.size() / 2),
        rounds.stream().mapToInt(r -> r.lateWrites().size()).sum());
    assertThat(rounds)
        .as("writes a deposed leader had accepted after the new leader acquired the Lease")
        .allSatisfy(
            r ->
                assertThat(r.lateWrites())
                    .as("%s of %s", r.kind(), r.deposed())
                    .extracting(AuditLog.Write::describe)
                    .isEmpty());
  }

  /** Changes every app's ConfigMap at once, from several threads: each change is a reconcile. */
  private static List<Future<?>> burst(
      KubernetesClient admin, String namespace, int round, ExecutorService threads) {
    List<Future<?>> changes = new ArrayList<>();
    for (int app = 0; app < APPS; app++) {
      String name = "app-" + app + "-config";
      changes.add(
          threads.submit(
              () ->
                  admin
                      .configMaps()
                      .inNamespace(namespace)
                      .withName(name)
                      .edit(
                          c ->
                              new ConfigMapBuilder(c)
                                  .addToData("GREETING", "round " + round)
                                  .build())));
    }
    return changes;
  }

  private static OperatorReplica replica(
      String id, TcpProxy proxy, String token, LocalCluster cluster, TestNamespace ns, Path work) {
    List<String> args = new ArrayList<>(TIMINGS);
    args.add("--leader-election-id");
    args.add(id);
    return new OperatorReplica(
        id,
        ShippedOperator.kubeconfig(work.resolve(id + ".kubeconfig"), proxy.port(), token, cluster),
        ns.name(),
        ShippedOperator.NAMESPACE,
        work.resolve(id + ".log"),
        args);
  }

  /** Writes of the replica {@code id}: its user agent ends with its identity. */
  private static Predicate<AuditLog.Write> by(String id) {
    return w -> w.userAgent().endsWith("(" + id + ")");
  }

  private static boolean lease(AuditLog.Write w) {
    return "leases".equals(w.resource()) && LEASE.equals(w.name());
  }

  private static boolean notLease(AuditLog.Write w) {
    return !"leases".equals(w.resource()) && !REVIEWS.contains(w.resource());
  }

  private static Optional<String> holder(KubernetesClient admin) {
    Lease lease = admin.leases().inNamespace(ShippedOperator.NAMESPACE).withName(LEASE).get();
    return Optional.ofNullable(lease)
        .map(Lease::getSpec)
        .map(spec -> spec.getHolderIdentity())
        .filter(h -> !h.isBlank());
  }

  private static String awaitHolder(KubernetesClient admin, Set<String> ids) {
    return await("a replica holding the Lease")
        .atMost(Duration.ofMinutes(2))
        .until(() -> holder(admin).filter(ids::contains).orElse(null), h -> h != null);
  }
}
