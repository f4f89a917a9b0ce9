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
 * <p>Size: {@code -Dfaults.apps} AppDeployments (24 in the normal build) and {@code -Dfaults.kills}
 * SIGKILLs of the leader (2); {@code bin/fault-suite} runs 500 and 20.
 */
@ExtendWith(LocalClusterExtension.class)
class FaultSuiteIT {

  private static final int APPS = Integer.getInteger("faults.apps", 24);
  private static final int KILLS = Integer.getInteger("faults.kills", 2);
  private static final Duration CONVERGE_TIMEOUT = Duration.ofSeconds(60 + APPS);
  private static final Pattern WRITES =
      Pattern.compile("^apiserver_request_total\\{([^}]*)\\} ([0-9.e+]+)$", Pattern.MULTILINE);

  /**
   * {@code writesSinceRestart}: the API server's counters restarted with it; writes before are
   * lost.
   */
  private record Row(
      String fault,
      int churned,
      long convergeMillis,
      long writes,
      boolean writesSinceRestart,
      int lost) {}

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

    try (TcpProxy proxyA = faults.proxyToApiServer();
        TcpProxy proxyB = faults.proxyToApiServer();
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
        row("none: " + APPS + " AppDeployments created", admin, world, () -> world.create(APPS));

        for (int k = 1; k <= KILLS; k++) {
          row(
              "SIGKILL of the leader at a random point (" + k + "/" + KILLS + ")",
              admin,
              world,
              () -> {
                Thread churn = churnInBackground(world, Math.max(4, APPS / 4));
                pause(Duration.ofMillis(ThreadLocalRandom.current().nextInt(1500)));
                OperatorReplica leader = leader(replicas);
                leader.kill();
                join(churn);
                leader.start();
              });
        }
        row(
            "kube-apiserver killed and restarted",
            admin,
            world,
            () -> {
              world.churn(Math.max(4, APPS / 4));
              faults.restartApiServer();
              world.churn(4);
            });
        row(
            "etcd killed and restarted",
            admin,
            world,
            () -> {
              world.churn(Math.max(4, APPS / 4));
              faults.restartEtcd();
              world.churn(4);
            });
        row(
            "connections cut for 5 s",
            admin,
            world,
            () -> {
              proxyA.cut();
              proxyB.cut();
              world.churn(Math.max(4, APPS / 4));
              pause(Duration.ofSeconds(5));
              proxyA.heal();
              proxyB.heal();
            });
        row(
            "connections stalled for 12 s (past the renew deadline)",
            admin,
            world,
            () -> {
              proxyA.stall();
              proxyB.stall();
              world.churn(Math.max(4, APPS / 4));
              pause(Duration.ofSeconds(12));
              proxyA.heal();
              proxyB.heal();
            });
        row(
            "watch expiry: etcd compacted while cut off (410 Gone)",
            admin,
            world,
            () -> {
              proxyA.cut();
              proxyB.cut();
              world.churn(Math.max(4, APPS / 4));
              faults.compactEtcd();
              faults.restartApiServer();
              proxyA.heal();
              proxyB.heal();
            });
        row(
            "RBAC taken away for 8 s and given back",
            admin,
            world,
            () -> {
              admin.rbac().clusterRoleBindings().withName("app-operator").delete();
              await()
                  .atMost(Duration.ofSeconds(10))
                  .until(
                      () ->
                          admin.rbac().clusterRoleBindings().withName("app-operator").get()
                              == null);
              world.churn(Math.max(4, APPS / 4));
              pause(Duration.ofSeconds(8));
              // health says what is wrong: the writes of the churn are refused, and the access
              // reviews that follow name each verb and resource lost (and, once a watch breaks, the
              // informer that cannot list again)
              String readiness = a.readiness() + b.readiness();
              System.out.println("readiness while forbidden:\n" + readiness);
              binding.getMetadata().setResourceVersion(null);
              binding.getMetadata().setUid(null);
              admin.resource(binding).create();
            });
        row(
            "a competing writer keeps changing owned fields",
            admin,
            world,
            () -> {
              for (int round = 0; round < 3; round++) {
                for (Deployment d :
                    admin.apps().deployments().inNamespace(ns.name()).list().getItems()) {
                  try {
                    admin
                        .apps()
                        .deployments()
                        .inNamespace(ns.name())
                        .withName(d.getMetadata().getName())
                        .edit(
                            x -> {
                              x.getSpec().setReplicas(7);
                              x.getSpec()
                                  .getTemplate()
                                  .getSpec()
                                  .getContainers()
                                  .get(0)
                                  .setImage("evil:1");
                              return x;
                            });
                    competingWrites.incrementAndGet();
                  } catch (io.fabric8.kubernetes.client.KubernetesClientException conflict) {
                    // the operator wrote meanwhile: fine, that is the point
                  }
                }
                world.churn(4);
              }
            });
        row(
            "the leader cut off from the API server (stalled)",
            admin,
            world,
            () -> {
              OperatorReplica leader = leader(replicas);
              TcpProxy its = leader == a ? proxyA : proxyB;
              OperatorReplica other = leader == a ? b : a;
              its.stall();
              world.churn(Math.max(4, APPS / 4));
              await().atMost(Duration.ofSeconds(60)).until(() -> other.workersAlive() > 0);
              its.heal();
            });
        row(
            "the leader killed (standby takes over)",
            admin,
            world,
            () -> {
              OperatorReplica leader = leader(replicas);
              OperatorReplica other = leader == a ? b : a;
              leader.kill();
              world.churn(Math.max(4, APPS / 4));
              await().atMost(Duration.ofSeconds(60)).until(() -> other.workersAlive() > 0);
              leader.start();
            });
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
      try (var files = Files.walk(work)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  private void row(String fault, KubernetesClient admin, AppWorld world, Runnable inject) {
    int churnedBefore = world.churned();
    long writesBefore = operatorWrites(admin);
    long began = System.nanoTime();
    inject.run();
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
    rows.add(
        new Row(
            fault,
            world.churned() - churnedBefore,
            check.converged() ? convergeMillis : -1,
            reset ? writesAfter : writesAfter - writesBefore,
            reset,
            lost));
    System.out.printf(
        "%s: %d churned, converged %d ms after the fault (fault lasted %d ms)%n",
        fault, world.churned() - churnedBefore, convergeMillis, (faultEnded - began) / 1_000_000);
  }

  private void printTable() {
    StringBuilder table =
        new StringBuilder(
            "\n| fault | churned objects | time to converge after"
                + " the fault | writes | lost updates, missing/duplicated/orphaned children, leftover"
                + " finalizers |\n|---|---|---|---|---|\n");
    for (Row r : rows) {
      table
          .append("| ")
          .append(r.fault())
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

  private static OperatorReplica leader(List<OperatorReplica> replicas) {
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> replicas.stream().filter(r -> r.workersAlive() > 0).count() == 1);
    return replicas.stream().filter(r -> r.workersAlive() > 0).findFirst().orElseThrow();
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
