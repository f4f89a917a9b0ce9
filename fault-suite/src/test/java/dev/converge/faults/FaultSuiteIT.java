package dev.converge.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.converge.testing.ClusterFaults;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TcpProxy;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The AppDeployment operator, two replicas with leader election, each its own JVM running under the
 * shipped ServiceAccount and least-privilege ClusterRole (TLS verification on), each reaching the
 * API server through a TCP proxy the suite controls. The suite churns AppDeployments and their
 * ConfigMaps while it injects real faults, one after the other, and after each checks what a user
 * would: every AppDeployment reaches its desired state, no child is missing, duplicated or
 * orphaned, no finalizer is left behind, and the two replicas never reconcile at the same time. It
 * prints a table and, at the end, scans every operator log line for the token and a Secret's value.
 *
 * <p>Each row also proves that its fault happened, from a record the operator does not write: the
 * Lease on the API server (leadership lost and taken), the API server's and etcd's own process
 * start times, the proxies' connection counts, a watch of the suite's own that meets 410 Gone, the
 * API server's access review and the replicas' {@code /readyz} answers over HTTP, and the competing
 * writer's own accepted writes. Expected values (the config hash) are computed by the suite.
 *
 * <p>Size: {@code -Dfaults.apps} AppDeployments (24 in the normal build) and {@code -Dfaults.kills}
 * SIGKILLs of the leader (2); {@code bin/fault-suite} runs 500 and 20. {@code -Dfaults.rows} runs
 * only the rows named (comma-separated: {@value #ROW_KEYS}) after the first, which creates the
 * AppDeployments.
 */
@ExtendWith(LocalClusterExtension.class)
class FaultSuiteIT {

  private static final int APPS = Integer.getInteger("faults.apps", 24);
  private static final int KILLS = Integer.getInteger("faults.kills", 2);
  private static final Duration CONVERGE_TIMEOUT = Duration.ofSeconds(60 + APPS);
  private static final String ROW_KEYS =
      "kill, apiserver, etcd, cut, stall, expiry, rbac, competitor, leader-stall, leader-kill";
  private static final java.util.Set<String> ROWS = selectedRows();
  private static final Pattern START_TIME =
      Pattern.compile("^process_start_time_seconds ([0-9.e+]+)$", Pattern.MULTILINE);
  private static final Pattern GONE_LOGGED = Pattern.compile("Watch restarting due to http gone");
  private static final String OPERATOR_USER = "system:serviceaccount:app-operator:app-operator";
  private static final Pattern WRITES =
      Pattern.compile("^apiserver_request_total\\{([^}]*)\\} ([0-9.e+]+)$", Pattern.MULTILINE);

  /**
   * {@code writesSinceRestart}: the API server's counters restarted with it; writes before are
   * lost.
   */
  private record Row(
      String fault,
      Proof proof,
      int churned,
      long convergeMillis,
      long writes,
      boolean writesSinceRestart,
      int lost) {}

  /**
   * Whether the fault happened, judged from a record the operator does not write, and that record.
   */
  private record Proof(boolean happened, String evidence) {
    static Proof of(boolean happened, String evidence) {
      return new Proof(happened, evidence);
    }
  }

  /** Injects a fault; returns how to prove, once the operator converged, that it happened. */
  @FunctionalInterface
  private interface Fault {
    java.util.function.Supplier<Proof> inject();
  }

  private final List<Row> rows = new ArrayList<>();
  private final List<String> overlaps = new CopyOnWriteArrayList<>();
  private final AtomicInteger competingWrites = new AtomicInteger();

  @Test
  void theOperatorConvergesThroughEveryFault(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) throws Exception {
    assumeTrue(cluster.faults().isPresent(), "needs a local control plane to inject faults");
    ClusterFaults faults = cluster.faults().orElseThrow();
    Path work = Files.createTempDirectory("converge-fault-suite-");
    String token = ShippedOperator.install(admin);
    ClusterRoleBinding binding = admin.rbac().clusterRoleBindings().withName("app-operator").get();
    String secretValue = "s3cr3t-" + UUID.randomUUID();
    admin
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("app-credentials")
                .endMetadata()
                .addToStringData("password", secretValue)
                .build())
        .create();

    // the hash the suite expects is computed by the suite; its encoding is pinned by a value
    // computed outside Java from the operator's documented definition
    assertThat(AppWorld.expectedHash(java.util.Map.of("A", "1"), null))
        .isEqualTo("1e728288c1fb2f84");

    try (TcpProxy proxyA = faults.proxyToApiServer();
        TcpProxy proxyB = faults.proxyToApiServer();
        TcpProxy proxyW = faults.proxyToApiServer();
        LeaseHistory lease = new LeaseHistory(admin, ShippedOperator.NAMESPACE);
        OperatorReplica a =
            new OperatorReplica(
                "replica-a",
                ShippedOperator.kubeconfig(
                    work.resolve("a.kubeconfig"), proxyA.port(), token, cluster),
                ns.name(),
                ShippedOperator.NAMESPACE,
                work.resolve("a.log"));
        OperatorReplica b =
            new OperatorReplica(
                "replica-b",
                ShippedOperator.kubeconfig(
                    work.resolve("b.kubeconfig"), proxyB.port(), token, cluster),
                ns.name(),
                ShippedOperator.NAMESPACE,
                work.resolve("b.log"))) {
      List<OperatorReplica> replicas = List.of(a, b);
      ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor();
      java.util.Map<OperatorReplica, Integer> notLive =
          new java.util.concurrent.ConcurrentHashMap<>();
      ScheduledFuture<?> watching =
          watcher.scheduleWithFixedDelay(
              () -> {
                int leading = 0;
                for (OperatorReplica r : replicas) {
                  leading += r.workersAlive() > 0 ? 1 : 0;
                  // the kubelet's liveness probe: 10 failed answers in a row restart the replica
                  // (as the
                  // shipped Deployment's probe does, faster)
                  if (r.reportsLive()) {
                    notLive.remove(r);
                  } else if (notLive.merge(r, 1, Integer::sum) >= 10) {
                    notLive.remove(r);
                    System.out.println(
                        r.name() + " reports not live: restarted, as by the kubelet");
                    r.restart();
                  }
                }
                if (leading > 1) {
                  overlaps.add(java.time.Instant.now().toString());
                }
              },
              0,
              100,
              TimeUnit.MILLISECONDS);
      try {
        a.start();
        b.start();
        AppWorld world = new AppWorld(admin, ns.name(), 42);
        row(
            "none: " + APPS + " AppDeployments created",
            admin,
            world,
            () -> {
              world.create(APPS);
              return () -> Proof.of(true, "no fault");
            });

        for (int k = 1; k <= KILLS && selected("kill"); k++) {
          row(
              "SIGKILL of the leader at a random point (" + k + "/" + KILLS + ")",
              admin,
              world,
              () -> {
                Thread churn = churnInBackground(world, Math.max(4, APPS / 4));
                pause(Duration.ofMillis(ThreadLocalRandom.current().nextInt(1500)));
                OperatorReplica leader = leader(replicas, lease);
                String holder = lease.holder();
                int mark = lease.mark();
                int exit = leader.kill();
                join(churn);
                leader.start();
                return () -> leaseTaken(lease, mark, holder, "exit status " + exit, exit == 137);
              });
        }
        if (selected("apiserver")) {
          row(
              "kube-apiserver killed and restarted",
              admin,
              world,
              () -> {
                double before = startTime(admin);
                world.churn(Math.max(4, APPS / 4));
                faults.restartApiServer();
                world.churn(4);
                return () -> {
                  double after = startTime(admin);
                  return Proof.of(
                      after > before,
                      String.format(
                          "kube-apiserver's process_start_time_seconds +%.0f s", after - before));
                };
              });
        }
        if (selected("etcd")) {
          row(
              "etcd killed and restarted",
              admin,
              world,
              () -> {
                double before = etcdStartTime(faults);
                world.churn(Math.max(4, APPS / 4));
                faults.restartEtcd();
                world.churn(4);
                return () -> {
                  double after = etcdStartTime(faults);
                  return Proof.of(
                      after > before,
                      String.format("etcd's process_start_time_seconds +%.0f s", after - before));
                };
              });
        }
        if (selected("cut")) {
          row(
              "connections cut for 5 s",
              admin,
              world,
              () -> {
                long acceptedA = proxyA.connectionsAccepted();
                long acceptedB = proxyB.connectionsAccepted();
                proxyA.cut();
                proxyB.cut();
                world.churn(Math.max(4, APPS / 4));
                pause(Duration.ofSeconds(5));
                proxyA.heal();
                proxyB.heal();
                return () -> reconnected(proxyA, acceptedA, proxyB, acceptedB);
              });
        }
        if (selected("stall")) {
          row(
              "connections stalled for 12 s (past the renew deadline)",
              admin,
              world,
              () -> {
                int mark = lease.mark();
                proxyA.stall();
                proxyB.stall();
                world.churn(Math.max(4, APPS / 4));
                pause(Duration.ofSeconds(12));
                proxyA.heal();
                proxyB.heal();
                return () -> leaseLostAndRegained(lease, mark);
              });
        }
        if (selected("expiry")) {
          row(
              "watch expiry: etcd compacted while cut off (410 Gone)",
              admin,
              world,
              () -> {
                long logA = a.logSize();
                long logB = b.logSize();
                GoneWatch witness = new GoneWatch(cluster, proxyW, ns.name());
                proxyA.cut();
                proxyB.cut();
                proxyW.cut();
                world.churn(Math.max(4, APPS / 4));
                long revision = faults.compactEtcd();
                faults.restartApiServer();
                proxyA.heal();
                proxyB.heal();
                proxyW.heal();
                return () -> {
                  try {
                    await()
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> witness.watchGone() + witness.httpGone() > 0);
                  } catch (org.awaitility.core.ConditionTimeoutException notSeen) {
                    // reported below, with the counts
                  } finally {
                    witness.close();
                  }
                  int informers = goneLogged(a, logA) + goneLogged(b, logB);
                  return Proof.of(
                      witness.watchGone() + witness.httpGone() > 0 && informers > 0,
                      "etcd compacted to revision "
                          + revision
                          + "; the suite's own watch ended by 410 Gone ("
                          + witness.watchGone()
                          + " watch close, "
                          + witness.httpGone()
                          + " HTTP 410); the operators' informers restarted on 410 "
                          + informers
                          + " times (their client's log); the API server counted "
                          + goneResponses(admin)
                          + " requests answered 410");
                };
              });
        }
        if (selected("rbac")) {
          row(
              "RBAC taken away for 8 s and given back",
              admin,
              world,
              () -> {
                OperatorReplica leader = leader(replicas, lease);
                ReadinessLog readiness = new ReadinessLog(replicas);
                admin.rbac().clusterRoleBindings().withName("app-operator").delete();
                await()
                    .atMost(Duration.ofSeconds(10))
                    .until(
                        () ->
                            admin.rbac().clusterRoleBindings().withName("app-operator").get()
                                == null);
                boolean deniedDuring = !operatorMayPatchDeployments(admin, ns.name());
                world.churn(Math.max(4, APPS / 4));
                // the refusals of the churn's writes reach the leader's readiness: wait for them
                // (bounded, so that a replica that never says so fails the proof, not the suite)
                try {
                  await()
                      .atMost(Duration.ofSeconds(30))
                      .until(() -> readiness.of(leader).contains(503));
                } catch (org.awaitility.core.ConditionTimeoutException stillReady) {
                  System.out.println(leader.name() + " stayed ready while forbidden");
                }
                pause(Duration.ofSeconds(8));
                System.out.println("readiness while forbidden:\n" + a.readiness() + b.readiness());
                binding.getMetadata().setResourceVersion(null);
                binding.getMetadata().setUid(null);
                admin.resource(binding).create();
                return () -> {
                  boolean allowedAfter = operatorMayPatchDeployments(admin, ns.name());
                  try {
                    await()
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> readiness.falseThenTrue(leader));
                  } catch (org.awaitility.core.ConditionTimeoutException notSeen) {
                    // reported below, with what was seen
                  }
                  readiness.close();
                  return Proof.of(
                      deniedDuring && allowedAfter && readiness.falseThenTrue(leader),
                      "the API server's access review of "
                          + OPERATOR_USER
                          + " (patch deployments): "
                          + (deniedDuring ? "denied" : "allowed")
                          + " while the binding was gone, "
                          + (allowedAfter ? "allowed" : "denied")
                          + " after; GET /readyz of the leader "
                          + leader.name()
                          + ": "
                          + readiness.describe(leader)
                          + ", of the standby: "
                          + readiness.describe(leader == a ? b : a));
                };
              });
        }
        if (selected("competitor")) {
          row(
              "a competing writer keeps changing owned fields",
              admin,
              world,
              () -> {
                int attempted = 0;
                int accepted = 0;
                int wanted = 0;
                for (int round = 0; round < 3; round++) {
                  List<Deployment> deployments =
                      admin.apps().deployments().inNamespace(ns.name()).list().getItems();
                  if (round == 0) {
                    wanted = deployments.size();
                  }
                  for (Deployment d : deployments) {
                    attempted++;
                    if (competingWrite(admin, d)) {
                      accepted++;
                      competingWrites.incrementAndGet();
                    }
                  }
                  world.churn(4);
                }
                int k = wanted;
                String evidence =
                    accepted
                        + " of "
                        + attempted
                        + " competing writes accepted by the API server (its answer: a new"
                        + " resourceVersion, replicas 7, image evil:1); at least "
                        + k
                        + " required";
                boolean happened = accepted >= k && k > 0;
                return () -> Proof.of(happened, evidence);
              });
        }
        if (selected("leader-stall")) {
          row(
              "the leader cut off from the API server (stalled)",
              admin,
              world,
              () -> {
                OperatorReplica leader = leader(replicas, lease);
                TcpProxy its = leader == a ? proxyA : proxyB;
                OperatorReplica other = leader == a ? b : a;
                String holder = lease.holder();
                int mark = lease.mark();
                its.stall();
                world.churn(Math.max(4, APPS / 4));
                // the API server's Lease says when the standby took over
                await().atMost(Duration.ofSeconds(90)).until(() -> other.holds(lease.holder()));
                its.heal();
                return () -> leaseTaken(lease, mark, holder, "proxy stalled", true);
              });
        }
        if (selected("leader-kill")) {
          row(
              "the leader killed (standby takes over)",
              admin,
              world,
              () -> {
                OperatorReplica leader = leader(replicas, lease);
                OperatorReplica other = leader == a ? b : a;
                String holder = lease.holder();
                int mark = lease.mark();
                int exit = leader.kill();
                world.churn(Math.max(4, APPS / 4));
                await().atMost(Duration.ofSeconds(90)).until(() -> other.holds(lease.holder()));
                leader.start();
                return () -> leaseTaken(lease, mark, holder, "exit status " + exit, exit == 137);
              });
        }
        assertThat(watching.isDone())
            .as("the liveness watcher still runs (it stops on an exception)")
            .isFalse();
      } finally {
        watcher.shutdownNow();
        printTable();
      }
      a.stop();
      b.stop();
      List<String> leaks = new ArrayList<>();
      for (OperatorReplica r : replicas) {
        String log = Files.readString(r.log(), StandardCharsets.UTF_8);
        if (log.contains(token)) {
          leaks.add(r.name() + " logged its token");
        }
        if (log.contains(secretValue)) {
          leaks.add(r.name() + " logged a Secret's value");
        }
      }
      System.out.println("operator logs in " + work + " (removed when the suite passes)");
      assertThat(leaks).as("secrets in the operators' logs").isEmpty();
      assertThat(overlaps).as("moments at which both replicas reconciled").isEmpty();
      assertThat(rows).allSatisfy(r -> assertThat(r.lost()).as(r.fault()).isZero());
      assertThat(rows)
          .allSatisfy(
              r ->
                  assertThat(r.proof().happened())
                      .as("the fault happened: %s (%s)", r.fault(), r.proof().evidence())
                      .isTrue());
      try (var files = Files.walk(work)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  private void row(String fault, KubernetesClient admin, AppWorld world, Fault injection) {
    int churnedBefore = world.churned();
    long writesBefore = operatorWrites(admin);
    long began = System.nanoTime();
    java.util.function.Supplier<Proof> proving = injection.inject();
    long faultEnded = System.nanoTime();
    AppWorld.Check check;
    try {
      await()
          .atMost(CONVERGE_TIMEOUT)
          .pollInterval(Duration.ofMillis(250))
          .ignoreExceptions()
          .until(() -> world.check().converged());
      check = world.check();
    } catch (org.awaitility.core.ConditionTimeoutException timeout) {
      check = world.check();
      System.out.println("not converged after " + fault + ": " + check);
    }
    long convergeMillis = (System.nanoTime() - faultEnded) / 1_000_000;
    int lost =
        check.notConverged()
            + check.missingChildren()
            + check.duplicatedChildren()
            + check.orphanedChildren()
            + check.leftoverFinalizers();
    long writesAfter = operatorWrites(admin);
    boolean reset = writesAfter < writesBefore;
    Proof proof;
    try {
      proof = proving.get();
    } catch (RuntimeException e) {
      proof = Proof.of(false, "no proof: " + e);
    }
    rows.add(
        new Row(
            fault,
            proof,
            world.churned() - churnedBefore,
            check.converged() ? convergeMillis : -1,
            reset ? writesAfter : writesAfter - writesBefore,
            reset,
            lost));
    System.out.printf(
        "%s: %d churned, converged %d ms after the fault (fault lasted %d ms); %s: %s%n",
        fault,
        world.churned() - churnedBefore,
        convergeMillis,
        (faultEnded - began) / 1_000_000,
        proof.happened() ? "it happened" : "NOT SHOWN TO HAVE HAPPENED",
        proof.evidence());
  }

  private void printTable() {
    StringBuilder table =
        new StringBuilder(
            "\n| fault | proof that it happened | churned objects | time to converge after"
                + " the fault | writes | lost updates, missing/duplicated/orphaned children, leftover"
                + " finalizers |\n|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      table
          .append("| ")
          .append(r.fault())
          .append(" | ")
          .append(r.proof().happened() ? "" : "NOT SHOWN: ")
          .append(r.proof().evidence())
          .append(" | ")
          .append(r.churned())
          .append(" | ")
          .append(
              r.convergeMillis() < 0
                  ? "not converged"
                  : String.format("%.1f s", r.convergeMillis() / 1000.0))
          .append(" | ")
          .append(r.writesSinceRestart() ? ">= " : "")
          .append(r.writes())
          .append(" | ")
          .append(r.lost())
          .append(" |\n");
    }
    table
        .append("\nmoments at which both replicas reconciled: ")
        .append(overlaps.size())
        .append('\n');
    System.out.println(table);
  }

  /**
   * Writes to Deployments and Services (not their status) counted by the API server, less the
   * competing writer's own: what the operator sent.
   */
  private long operatorWrites(KubernetesClient admin) {
    String metrics;
    try {
      metrics = admin.raw(admin.getMasterUrl().toString().replaceAll("/$", "") + "/metrics");
    } catch (RuntimeException e) {
      return 0;
    }
    if (metrics == null) {
      return 0;
    }
    long total = 0;
    Matcher m = WRITES.matcher(metrics);
    while (m.find()) {
      String labels = m.group(1);
      boolean children =
          labels.contains("resource=\"deployments\"") || labels.contains("resource=\"services\"");
      boolean write = labels.matches(".*verb=\"(POST|PUT|PATCH|APPLY)\".*");
      if (children && write && labels.contains("subresource=\"\"")) {
        total += (long) Double.parseDouble(m.group(2));
      }
    }
    return Math.max(0, total - competingWrites.get());
  }

  /**
   * The replica that leads: the one named in the Lease's holder on the API server, once it also
   * runs its workers (a replica just restarted may still be named in a Lease it no longer renews).
   */
  private static OperatorReplica leader(List<OperatorReplica> replicas, LeaseHistory lease) {
    await()
        .atMost(Duration.ofSeconds(90))
        .until(
            () ->
                replicas.stream()
                        .filter(r -> r.holds(lease.holder()) && r.workersAlive() > 0)
                        .count()
                    == 1);
    return replicas.stream().filter(r -> r.holds(lease.holder())).findFirst().orElseThrow();
  }

  /**
   * Proof that leadership moved: the Lease on the API server, held by {@code holder} at {@code
   * mark}, is held and renewed by another identity afterwards, with leaseTransitions counted up.
   */
  private static Proof leaseTaken(
      LeaseHistory lease, int mark, String holder, String what, boolean faultSeen) {
    try {
      await()
          .atMost(Duration.ofSeconds(90))
          .until(() -> !lease.holder().equals(holder) && lease.heldAgainSince(mark));
    } catch (org.awaitility.core.ConditionTimeoutException notTaken) {
      // reported below, with the Lease's record
    }
    LeaseHistory.Span span = lease.since(mark);
    boolean taken =
        span.holders().size() > 1
            && span.holders().get(0).equals(holder)
            && !lease.holder().equals(holder)
            && span.transitions() >= 1;
    return Proof.of(faultSeen && taken, what + "; " + span);
  }

  /**
   * Proof that the leader lost the Lease and a leader holds it again: on the API server the Lease
   * changed holder or went unrenewed past its duration, and is renewed again.
   */
  private static Proof leaseLostAndRegained(LeaseHistory lease, int mark) {
    try {
      await()
          .atMost(Duration.ofSeconds(90))
          .until(() -> lease.since(mark).leadershipLost() && lease.heldAgainSince(mark));
    } catch (org.awaitility.core.ConditionTimeoutException notSeen) {
      // reported below, with the Lease's record
    }
    LeaseHistory.Span span = lease.since(mark);
    return Proof.of(span.leadershipLost() && lease.heldAgainSince(mark), span.toString());
  }

  /** Proof that the operators' connections were cut: both opened new ones through their proxy. */
  private static Proof reconnected(TcpProxy a, long acceptedA, TcpProxy b, long acceptedB) {
    long newA = a.connectionsAccepted() - acceptedA;
    long newB = b.connectionsAccepted() - acceptedB;
    return Proof.of(
        newA > 0 && newB > 0,
        "new connections after the cut, through each replica's proxy: " + newA + " and " + newB);
  }

  /** The API server's own {@code process_start_time_seconds}. */
  private static double startTime(KubernetesClient admin) {
    return startTimeIn(
        await()
            .atMost(Duration.ofSeconds(60))
            .ignoreExceptions()
            .until(
                () -> admin.raw(admin.getMasterUrl().toString().replaceAll("/$", "") + "/metrics"),
                java.util.Objects::nonNull));
  }

  /** etcd's own {@code process_start_time_seconds}, from its metrics endpoint. */
  private static double etcdStartTime(ClusterFaults faults) {
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    java.net.URI metrics = faults.etcdUrl().resolve("/metrics");
    return startTimeIn(
        await()
            .atMost(Duration.ofSeconds(60))
            .ignoreExceptions()
            .until(
                () ->
                    http.send(
                            java.net.http.HttpRequest.newBuilder(metrics)
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString())
                        .body(),
                java.util.Objects::nonNull));
  }

  private static double startTimeIn(String metrics) {
    Matcher m = START_TIME.matcher(metrics);
    if (!m.find()) {
      throw new IllegalStateException("no process_start_time_seconds in the metrics");
    }
    return Double.parseDouble(m.group(1));
  }

  /**
   * Times the replica's informers restarted a watch on 410 Gone since its log had {@code from}
   * bytes: the fabric8 client's own line (the operator logs at debug level), not Converge's.
   */
  private static int goneLogged(OperatorReplica replica, long from) {
    String log;
    try {
      byte[] all = Files.readAllBytes(replica.log());
      log =
          new String(
              all,
              (int) Math.min(from, all.length),
              all.length - (int) Math.min(from, all.length),
              StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    Matcher m = GONE_LOGGED.matcher(log);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  /** Requests the API server answered with 410 Gone since it started (its own counter). */
  private static long goneResponses(KubernetesClient admin) {
    String metrics = admin.raw(admin.getMasterUrl().toString().replaceAll("/$", "") + "/metrics");
    long total = 0;
    Matcher m = WRITES.matcher(metrics == null ? "" : metrics);
    while (m.find()) {
      if (m.group(1).contains("code=\"410\"")) {
        total += (long) Double.parseDouble(m.group(2));
      }
    }
    return total;
  }

  /** The API server's answer to: may the operator's account patch Deployments in the namespace? */
  private static boolean operatorMayPatchDeployments(KubernetesClient admin, String namespace) {
    return Boolean.TRUE.equals(
        admin
            .authorization()
            .v1()
            .subjectAccessReview()
            .create(
                new io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder()
                    .withNewSpec()
                    .withUser(OPERATOR_USER)
                    .withGroups(
                        "system:serviceaccounts",
                        "system:serviceaccounts:" + ShippedOperator.NAMESPACE,
                        "system:authenticated")
                    .withNewResourceAttributes()
                    .withVerb("patch")
                    .withGroup("apps")
                    .withResource("deployments")
                    .withNamespace(namespace)
                    .endResourceAttributes()
                    .endSpec()
                    .build())
            .getStatus()
            .getAllowed());
  }

  /**
   * One write of the competing writer: replicas 7 and image evil:1 on a Deployment the operator
   * owns. True when the API server accepted it: its answer carries a new resourceVersion and the
   * competitor's values. A conflict (the operator wrote in between) is not an accepted write.
   */
  private static boolean competingWrite(KubernetesClient admin, Deployment d) {
    try {
      Deployment written =
          admin
              .apps()
              .deployments()
              .inNamespace(d.getMetadata().getNamespace())
              .withName(d.getMetadata().getName())
              .edit(
                  x -> {
                    x.getSpec().setReplicas(7);
                    x.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("evil:1");
                    return x;
                  });
      return written != null
          && !written
              .getMetadata()
              .getResourceVersion()
              .equals(d.getMetadata().getResourceVersion())
          && Integer.valueOf(7).equals(written.getSpec().getReplicas())
          && "evil:1"
              .equals(written.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
    } catch (io.fabric8.kubernetes.client.KubernetesClientException conflict) {
      return false; // the operator wrote meanwhile, or the Deployment went with a delete
    }
  }

  private static boolean selected(String row) {
    return ROWS.isEmpty() || ROWS.contains(row);
  }

  private static java.util.Set<String> selectedRows() {
    String given = System.getProperty("faults.rows", "").trim();
    java.util.Set<String> rows = new java.util.TreeSet<>();
    java.util.Set<String> known = new java.util.TreeSet<>(List.of(ROW_KEYS.split(", ", -1)));
    for (String row : given.split(",", -1)) {
      if (row.isBlank()) {
        continue;
      }
      if (!known.contains(row.trim())) {
        throw new IllegalArgumentException(
            "faults.rows: no row '" + row.trim() + "'; rows are " + ROW_KEYS);
      }
      rows.add(row.trim());
    }
    return rows;
  }

  private static Thread churnInBackground(AppWorld world, int count) {
    Thread t = new Thread(() -> world.churn(count), "fault-suite-churn");
    t.start();
    return t;
  }

  private static void join(Thread t) {
    try {
      t.join(Duration.ofMinutes(5).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Lets time pass while a fault lasts (through Awaitility, never a bare sleep). */
  private static void pause(Duration d) {
    await().pollDelay(d).atMost(d.plusSeconds(5)).until(() -> true);
  }
}
