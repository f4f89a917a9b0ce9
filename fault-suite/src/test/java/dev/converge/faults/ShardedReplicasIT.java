package dev.converge.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.example.api.AppDeployment;
import dev.converge.testing.AuditLog;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The AppDeployment operator sharded over several replicas, each its own JVM started as a user
 * starts it ({@code --sharded}, a distinct {@code --leader-election-id}, short lease timings), and
 * judged only from the API server: the labels on the objects, the objects themselves and
 * kube-apiserver's audit log of who wrote what; a replica's own figure ({@code
 * converge_shard_objects}) is checked against the server's.
 *
 * <p>One run, in phases, over {@code faults.shard.apps} AppDeployments (60 in the normal build,
 * 3,000 with {@code bin/shard-suite}):
 *
 * <ol>
 *   <li><b>spread</b>: three replicas; every AppDeployment ends labelled {@code
 *       shard.converge.dev/app-operator=<member>} for a live replica, converged, its Deployment and
 *       Service carrying the same label; the shares are printed and, from 600 AppDeployments on
 *       (where a consistent-hash ring spreads that evenly), each must lie within ±15% of N/3; each
 *       replica's {@code converge_shard_objects} equals the number the API server labels for it; at
 *       the on-demand size, each replica's heap after a full GC is printed;
 *   <li><b>scaling under churn</b>: while a thread creates, edits (image, pods), changes the
 *       ConfigMaps of and deletes AppDeployments, two replicas join (3 to 5), then three leave one
 *       after the other by SIGTERM (5 to 2), whoever leads among them; at the end every
 *       AppDeployment that should exist matches its last spec (no update lost), every deleted one
 *       is gone, and every one is labelled for a live replica;
 *   <li><b>SIGKILL</b>: a third replica joins again, and one replica that does not lead is killed;
 *       the objects it had are labelled for live replicas within the lease duration + 5 s of the
 *       kill (the suite's clock, polling the labels on the API server), and, edited right after the
 *       kill, converge there;
 *   <li><b>hand-overs</b>: over the whole run, the audit log shows no moment where two replicas
 *       wrote to one AppDeployment or its children within one hand-over: {@link HandOvers} defines
 *       the rule (a change of writer must follow the old member's acknowledging patch or the end of
 *       its Lease, and the sharder's relabelling); the count of violations must be 0, and the
 *       hand-overs and writes are printed; and a watch of the AppDeployments shows no shard label
 *       removed from an object that was not draining (a member lets an object go only when asked).
 * </ol>
 *
 * At the on-demand size (at least 600), one unsharded replica then caches everything alone and its
 * heap after a full GC is printed beside the sharded replicas'.
 */
@ExtendWith(LocalClusterExtension.class)
class ShardedReplicasIT {

  private static final int APPS = Integer.getInteger("faults.shard.apps", 60);
  private static final String RING = "app-operator";
  private static final String SHARD_LABEL = "shard.converge.dev/" + RING;
  private static final String DRAIN_LABEL = "drain.shard.converge.dev/" + RING;
  private static final int LEASE_SECONDS = 6;
  private static final Duration LEASE = Duration.ofSeconds(LEASE_SECONDS);
  private static final List<String> TIMINGS =
      List.of(
          "--leader-election-lease-duration",
          Integer.toString(LEASE_SECONDS),
          "--leader-election-renew-deadline",
          "4",
          "--leader-election-retry-period",
          "1");
  private static final Duration CONVERGE = Duration.ofSeconds(240 + APPS / 4);
  private static final Pattern SHARD_OBJECTS =
      Pattern.compile("^converge_shard_objects(\\{[^}]*\\})? ([0-9.eE+-]+)$", Pattern.MULTILINE);

  @Test
  void replicasShareTheObjectsAndHandThemOverWithoutTwoWriters(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) throws Exception {
    Path auditFile =
        cluster
            .auditLog()
            .orElseThrow(
                () ->
                    new AssertionError(
                        "the local cluster runs without an audit log; start it with"
                            + " -Dconverge.cluster.audit=true (the fault suite's build does)"));
    AuditLog audit = new AuditLog(auditFile);
    Path work = Files.createTempDirectory("converge-sharded-");
    String token = ShippedOperator.install(admin);
    int port = URI.create(cluster.config().getMasterUrl()).getPort();
    Path kubeconfig = ShippedOperator.kubeconfig(work.resolve("kubeconfig"), port, token, cluster);
    // 0 or 1 pod per AppDeployment: thousands of them stay light for the control plane
    AppWorld world = new AppWorld(admin, ns.name(), 31, 0);
    world.create(APPS);

    // every change of an AppDeployment's shard labels, as the API server's watch delivers them
    List<String> undrainedRemovals = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.concurrent.atomic.AtomicInteger labelChanges =
        new java.util.concurrent.atomic.AtomicInteger();
    var labelWatch =
        admin
            .resources(AppDeployment.class)
            .inNamespace(ns.name())
            .inform(
                new io.fabric8.kubernetes.client.informers.ResourceEventHandler<AppDeployment>() {
                  @Override
                  public void onAdd(AppDeployment app) {}

                  @Override
                  public void onUpdate(AppDeployment before, AppDeployment after) {
                    String was = labels(before).get(SHARD_LABEL);
                    String is = labels(after).get(SHARD_LABEL);
                    if (Objects.equals(was, is)) {
                      return;
                    }
                    labelChanges.incrementAndGet();
                    if (was != null
                        && is == null
                        && !labels(before).containsKey(DRAIN_LABEL)
                        && after.getMetadata().getDeletionTimestamp() == null) {
                      undrainedRemovals.add(
                          "AppDeployment "
                              + ns.name()
                              + "/"
                              + after.getMetadata().getName()
                              + ": label "
                              + was
                              + " removed at resourceVersion "
                              + after.getMetadata().getResourceVersion()
                              + " without a drain asked");
                    }
                  }

                  @Override
                  public void onDelete(AppDeployment app, boolean unknown) {}
                });
    Map<String, OperatorReplica> replicas = new LinkedHashMap<>();
    for (String id : List.of("shard-a", "shard-b", "shard-c", "shard-d", "shard-e", "shard-f")) {
      replicas.put(id, replica(id, kubeconfig, ns, work, true));
    }
    Set<String> live = new TreeSet<>();
    try {
      // 1. spread over three
      for (String id : List.of("shard-a", "shard-b", "shard-c")) {
        replicas.get(id).start();
        live.add(id);
      }
      long began = System.nanoTime();
      awaitSettled(admin, ns, world, live, "three replicas");
      System.out.printf(
          "sharded: %d AppDeployments converged over 3 replicas %.1f s after they started%n",
          APPS, (System.nanoTime() - began) / 1e9);
      Map<String, Integer> shares = shares(admin, ns);
      System.out.printf(
          "sharded spread of %d AppDeployments over 3 replicas: %s (mean %.1f, largest deviation"
              + " %.1f%%)%n",
          APPS, shares, APPS / 3.0, deviationPercent(shares, APPS));
      assertThat(shares.keySet()).as("members with AppDeployments").isEqualTo(live);
      // asserted at the end, so that an uneven ring still lets every other phase report
      double spreadDeviation = deviationPercent(shares, APPS);
      Map<String, Integer> spread = new TreeMap<>(shares);
      // each replica's own count of what it caches, against the server's
      Map<String, Integer> reported = new TreeMap<>();
      await("each replica's converge_shard_objects equal to the AppDeployments labelled for it")
          .atMost(Duration.ofMinutes(2))
          .pollInterval(Duration.ofMillis(500))
          .until(
              () -> {
                Map<String, Integer> counts = shares(admin, ns);
                reported.clear();
                for (String id : live) {
                  reported.put(id, shardObjects(replicas.get(id)));
                }
                return counts.equals(reported);
              });
      System.out.printf(
          "sharded: converge_shard_objects per replica %s, labelled on the API server %s%n",
          reported, shares(admin, ns));
      Map<String, Long> heaps = new TreeMap<>();
      if (APPS >= 600) {
        for (String id : live) {
          heaps.put(id, replicas.get(id).heapAfterFullGcBytes());
        }
        System.out.printf(
            "sharded: heap after a full GC per replica (MiB): %s%n", mebibytes(heaps));
      }

      // 2. 3 -> 5 -> 2 under churn
      AtomicBoolean churning = new AtomicBoolean(true);
      ExecutorService churner = Executors.newSingleThreadExecutor();
      Future<?> churn =
          churner.submit(
              () -> {
                while (churning.get()) {
                  world.churn(4);
                  // about 10 changes a second: churn, not a load test
                  LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(400));
                }
                return null;
              });
      try {
        for (String id : List.of("shard-d", "shard-e")) {
          replicas.get(id).start();
          live.add(id);
        }
        await("the AppDeployments shared by five replicas")
            .atMost(CONVERGE)
            .pollInterval(Duration.ofSeconds(1))
            .until(() -> shares(admin, ns).keySet().equals(live));
        System.out.printf("sharded: 5 replicas, shares %s%n", shares(admin, ns));
        for (String id : List.of("shard-a", "shard-b", "shard-c")) {
          String leader = leader(admin).orElse("none");
          replicas.get(id).stop();
          live.remove(id);
          await("the objects of " + id + " (stopped) labelled for live replicas")
              .atMost(CONVERGE)
              .pollInterval(Duration.ofSeconds(1))
              .until(() -> live.containsAll(shares(admin, ns).keySet()));
          System.out.printf(
              "sharded: %s stopped (SIGTERM; the leader was %s), shares %s%n",
              id, leader, shares(admin, ns));
        }
      } finally {
        churning.set(false);
        churn.get(2, TimeUnit.MINUTES);
        churner.shutdown();
      }
      awaitSettled(admin, ns, world, live, "two replicas after the churn");
      System.out.printf(
          "sharded: after %d changes while scaling 3 -> 5 -> 2, every AppDeployment converged to"
              + " its last spec on %s: %s%n",
          world.churned(), live, shares(admin, ns));

      // 3. SIGKILL of one replica of three
      replicas.get("shard-f").start();
      live.add("shard-f");
      awaitSettled(admin, ns, world, live, "three replicas again");
      String leader = leader(admin).orElseThrow(() -> new AssertionError("no leader"));
      String victim = live.stream().filter(id -> !id.equals(leader)).findFirst().orElseThrow();
      List<String> victimsObjects = labelledFor(admin, ns, victim);
      assertThat(victimsObjects).as("AppDeployments of %s before the kill", victim).isNotEmpty();
      long killedAt = System.nanoTime();
      int status = replicas.get(victim).kill();
      live.remove(victim);
      assertThat(status).as("exit status of %s after SIGKILL", victim).isEqualTo(137);
      ExecutorService editor = Executors.newSingleThreadExecutor();
      Future<?> edits =
          editor.submit(
              () -> {
                for (String name : victimsObjects) {
                  if (world.live().contains(name)) {
                    world.edit(name);
                  }
                }
                return null;
              });
      // read from the label watch's cache (the API server's watch), not by listing every
      // AppDeployment each time: at thousands of objects the lists would load the API server
      // during the very moves they time
      Duration takenOver =
          await("the objects of " + victim + " (killed) labelled for live replicas")
              .atMost(Duration.ofMinutes(3))
              .pollInterval(Duration.ofMillis(100))
              .until(
                  () ->
                      labelWatch.getStore().list().stream()
                              .map(app -> labels(app).get(SHARD_LABEL))
                              .filter(Objects::nonNull)
                              .allMatch(live::contains)
                          ? Duration.ofNanos(System.nanoTime() - killedAt)
                          : null,
                  Objects::nonNull);
      assertThat(shares(admin, ns).keySet())
          .as("members labelled on the API server once the watch saw the moves")
          .isSubsetOf(live);
      edits.get(5, TimeUnit.MINUTES);
      editor.shutdown();
      awaitSettled(admin, ns, world, live, "two replicas after the kill");
      System.out.printf(
          "sharded: %s (not leading, %d AppDeployments) SIGKILLed; all of them labelled for %s"
              + " %.1f s after the kill (lease %d s), edited and converged there: %s%n",
          victim,
          victimsObjects.size(),
          live,
          takenOver.toMillis() / 1000.0,
          LEASE_SECONDS,
          shares(admin, ns));

      // 4. the audit log: one writer at a time
      HandOvers.Result judged =
          HandOvers.judge(audit.writes(), ns.name(), RING, replicas.keySet(), LEASE);
      System.out.println("sharded hand-overs: " + judged.summary());
      judged.violations().stream().limit(20).forEach(v -> System.out.println("  violation: " + v));
      if (!judged.violations().isEmpty()) {
        Files.copy(auditFile, work.resolve("audit.log"));
        System.out.println("sharded: the replicas' logs and the audit log are in " + work);
      }
      assertThat(judged.sharderWrites()).as("writes of the sharder").isPositive();
      assertThat(judged.handOvers()).as("hand-overs seen in the audit log").isPositive();
      assertThat(judged.violations())
          .as("hand-overs where two replicas wrote to one object (see HandOvers)")
          .isEmpty();

      // and the watch: a member's label comes off only after the sharder asked for a drain
      System.out.printf(
          "sharded: %d changes of the shard label seen by a watch, %d removals without a drain%n",
          labelChanges.get(), undrainedRemovals.size());
      assertThat(undrainedRemovals)
          .as("shard labels removed from an AppDeployment that was not draining")
          .isEmpty();

      // 5. at the on-demand size: one unsharded replica's heap beside the sharded ones'
      if (APPS >= 600) {
        for (String id : live) {
          replicas.get(id).stop();
        }
        live.clear();
        try (OperatorReplica single = replica("single", kubeconfig, ns, work, false)) {
          single.start();
          await("the unsharded replica's caches synced")
              .atMost(CONVERGE)
              .pollInterval(Duration.ofSeconds(1))
              .until(() -> single.readyStatus() == 200);
          System.out.printf(
              "sharded: heap after a full GC, one unsharded replica with all %d AppDeployments"
                  + " %.1f MiB; each of three sharded replicas %s MiB%n",
              world.live().size(), single.heapAfterFullGcBytes() / 1048576.0, mebibytes(heaps));
        }
      }
      // asserted last too: the sharder relabels a killed member's objects one patch each
      assertThat(takenOver)
          .as("from the SIGKILL of %s to its objects labelled for live replicas", victim)
          .isLessThanOrEqualTo(LEASE.plusSeconds(5));
      if (APPS >= 600) {
        assertThat(spreadDeviation)
            .as("largest deviation of a share from N/3 over three replicas, in %%: %s", spread)
            .isLessThanOrEqualTo(15.0);
      }
    } finally {
      labelWatch.close();
      for (OperatorReplica r : replicas.values()) {
        r.close();
      }
    }
  }

  /**
   * Waits until every AppDeployment is converged to what was asked, labelled for one of {@code
   * live} with no drain label left, and its Deployment and Service carry the same label.
   */
  private static void awaitSettled(
      KubernetesClient admin, TestNamespace ns, AppWorld world, Set<String> live, String what) {
    List<String> last = new ArrayList<>();
    try {
      await("every AppDeployment converged and labelled for " + live + " (" + what + ")")
          .atMost(CONVERGE)
          .pollInterval(Duration.ofSeconds(1))
          .until(
              () -> {
                last.clear();
                AppWorld.Check check = world.check();
                if (!check.converged()) {
                  last.addAll(check.examples());
                  return false;
                }
                last.addAll(labelProblems(admin, ns, live));
                return last.isEmpty();
              });
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError("not settled (" + what + "): " + last, e);
    }
  }

  /** What is wrong with the shard labels of the AppDeployments and their children. */
  private static List<String> labelProblems(
      KubernetesClient admin, TestNamespace ns, Set<String> live) {
    List<String> problems = new ArrayList<>();
    Map<String, String> memberByUid = new HashMap<>();
    for (AppDeployment app :
        admin.resources(AppDeployment.class).inNamespace(ns.name()).list().getItems()) {
      Map<String, String> labels = labels(app);
      String member = labels.get(SHARD_LABEL);
      if (member == null || !live.contains(member)) {
        problems.add(
            "AppDeployment " + ns.name() + "/" + app.getMetadata().getName() + " " + member);
      } else if (labels.containsKey(DRAIN_LABEL)) {
        problems.add("AppDeployment " + ns.name() + "/" + app.getMetadata().getName() + " drains");
      }
      memberByUid.put(app.getMetadata().getUid(), member);
    }
    List<HasMetadata> children = new ArrayList<>();
    children.addAll(admin.apps().deployments().inNamespace(ns.name()).list().getItems());
    children.addAll(admin.services().inNamespace(ns.name()).list().getItems());
    for (HasMetadata child : children) {
      Optional<String> owner =
          child.getMetadata().getOwnerReferences().stream()
              .filter(o -> Boolean.TRUE.equals(o.getController()))
              .map(OwnerReference::getUid)
              .findFirst();
      if (owner.isPresent()
          && memberByUid.containsKey(owner.get())
          && !Objects.equals(memberByUid.get(owner.get()), labels(child).get(SHARD_LABEL))) {
        problems.add(
            child.getKind()
                + " "
                + ns.name()
                + "/"
                + child.getMetadata().getName()
                + " labelled "
                + labels(child).get(SHARD_LABEL)
                + ", its owner "
                + memberByUid.get(owner.get()));
      }
    }
    return problems.size() > 5 ? problems.subList(0, 5) : problems;
  }

  private static Map<String, String> labels(HasMetadata object) {
    Map<String, String> labels = object.getMetadata().getLabels();
    return labels == null ? Map.of() : labels;
  }

  /** AppDeployments per member label value, as the API server has them (unlabelled left out). */
  private static Map<String, Integer> shares(KubernetesClient admin, TestNamespace ns) {
    Map<String, Integer> shares = new TreeMap<>();
    for (AppDeployment app :
        admin.resources(AppDeployment.class).inNamespace(ns.name()).list().getItems()) {
      String member = labels(app).get(SHARD_LABEL);
      if (member != null) {
        shares.merge(member, 1, Integer::sum);
      }
    }
    return shares;
  }

  private static List<String> labelledFor(KubernetesClient admin, TestNamespace ns, String id) {
    return admin
        .resources(AppDeployment.class)
        .inNamespace(ns.name())
        .withLabel(SHARD_LABEL, id)
        .list()
        .getItems()
        .stream()
        .map(a -> a.getMetadata().getName())
        .toList();
  }

  private static double deviationPercent(Map<String, Integer> shares, int total) {
    double mean = total / (double) shares.size();
    return shares.values().stream()
        .mapToDouble(s -> Math.abs(s - mean) / mean * 100)
        .max()
        .orElse(0);
  }

  /**
   * The replica's {@code converge_shard_objects}: the AppDeployments its cache holds (the sample
   * for AppDeployments when the metric has one per kind); -1 when it does not answer.
   */
  private static int shardObjects(OperatorReplica replica) {
    String metrics = replica.metrics();
    if (metrics == null) {
      return -1;
    }
    Matcher m = SHARD_OBJECTS.matcher(metrics);
    double sum = 0;
    boolean found = false;
    while (m.find()) {
      String labels = m.group(1) == null ? "" : m.group(1);
      if (labels.isEmpty() || !labels.contains("kind=") || labels.contains("AppDeployment")) {
        sum += Double.parseDouble(m.group(2));
        found = true;
      }
    }
    return found ? (int) sum : -1;
  }

  private static Map<String, String> mebibytes(Map<String, Long> bytes) {
    Map<String, String> out = new TreeMap<>();
    bytes.forEach((id, b) -> out.put(id, String.format("%.1f", b / 1048576.0)));
    return out;
  }

  private static Optional<String> leader(KubernetesClient admin) {
    Lease lease = admin.leases().inNamespace(ShippedOperator.NAMESPACE).withName(RING).get();
    return Optional.ofNullable(lease)
        .map(Lease::getSpec)
        .map(spec -> spec.getHolderIdentity())
        .filter(h -> !h.isBlank());
  }

  private static OperatorReplica replica(
      String id, Path kubeconfig, TestNamespace ns, Path work, boolean sharded) {
    List<String> args = new ArrayList<>(TIMINGS);
    if (sharded) {
      args.add("--sharded");
    }
    args.add("--leader-election-id");
    args.add(id);
    return new OperatorReplica(
            id, kubeconfig, ns.name(), ShippedOperator.NAMESPACE, work.resolve(id + ".log"), args)
        // at thousands of objects every watch event logged at debug costs each replica CPU
        .logLevel(APPS >= 600 ? "info" : "debug");
  }
}
