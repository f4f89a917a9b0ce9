package dev.converge.shard.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.operator.internal.LeaseFence;
import dev.converge.queue.internal.Ticker;
import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sharder against a real API server: ConfigMaps are the primary kind, the members are real
 * shard Leases that the test renews (or stops renewing, or deletes), and every assertion reads the
 * ConfigMaps back from the API server. Where an object must go is computed by the test from {@link
 * ShardRing} over the members it keeps alive.
 */
@ExtendWith(LocalClusterExtension.class)
class SharderIT {

  private static final String RING = "cms";
  private static final String SHARD = "shard.converge.dev/cms";
  private static final String DRAIN = "drain.shard.converge.dev/cms";
  private static final Duration PATIENCE = Duration.ofSeconds(90);

  @Test
  void threeMembersShareThreeHundredConfigMapsAsTheRingSays(KubernetesClient client)
      throws Exception {
    try (Members members = new Members(client)) {
      for (String m : List.of("member-a", "member-b", "member-c")) {
        members.join(m, Duration.ofSeconds(15), Duration.ofSeconds(2));
      }
      createConfigMaps(client, 300, 0);
      try (Sharder sharder = sharder(client)) {
        sharder.start();
        assertThat(sharder.awaitSynced(PATIENCE)).isTrue();

        ShardRing ring = ShardRing.of(List.of("member-a", "member-b", "member-c"));
        List<ConfigMap> all = awaitLabelledAsRing(client, ring);

        Map<String, Long> shares = shares(all, "cm-");
        System.out.printf(
            "SharderIT spread: 300 ConfigMaps over 3 members: %s (deviation from 100: %s)%n",
            shares, deviations(shares, 100));
        assertThat(shares)
            .containsOnlyKeys("member-a", "member-b", "member-c")
            .allSatisfy((member, n) -> assertThat(n).as(member).isBetween(60L, 140L));
        assertThat(sharder.liveMembers()).containsExactly("member-a", "member-b", "member-c");
        await()
            .atMost(PATIENCE)
            .untilAsserted(
                () -> {
                  assertThat(sharder.assigned()).isEqualTo(all.size());
                  assertThat(sharder.assignments()).isEqualTo(shares(all, ""));
                });
        assertThat(sharder.drainsRequested()).isZero();
        assertThat(sharder.moved()).isZero();
        System.out.printf("SharderIT spread: imbalance %.3f%n", sharder.imbalance());
        assertThat(sharder.imbalance()).isLessThan(0.8);
      }
    }
  }

  @Test
  void aJoiningMemberGetsItsShareThroughDrainAndAcknowledgement(KubernetesClient client)
      throws Exception {
    String ns = client.getNamespace();
    try (Members members = new Members(client)) {
      for (String m : List.of("member-a", "member-b", "member-c")) {
        members.join(m, Duration.ofSeconds(15), Duration.ofSeconds(2));
      }
      createConfigMaps(client, 300, 0);
      List<Duration> handOvers = new CopyOnWriteArrayList<>();
      try (Sharder sharder = sharder(client)) {
        sharder.onHandOver(handOvers::add);
        sharder.start();
        assertThat(sharder.awaitSynced(PATIENCE)).isTrue();
        ShardRing three = ShardRing.of(List.of("member-a", "member-b", "member-c"));
        ShardRing four = ShardRing.of(List.of("member-a", "member-b", "member-c", "member-d"));
        Map<String, ConfigMap> before = byName(awaitLabelledAsRing(client, three));
        Set<String> moving =
            before.keySet().stream()
                .filter(name -> !owner(three, ns, name).equals(owner(four, ns, name)))
                .collect(Collectors.toSet());
        moving.forEach(
            name ->
                assertThat(owner(four, ns, name))
                    .as("moves to the new member")
                    .isEqualTo("member-d"));

        members.join("member-d", Duration.ofSeconds(15), Duration.ofSeconds(2));

        // the old members are asked to let go of what moves, and of nothing else
        await()
            .atMost(PATIENCE)
            .untilAsserted(
                () -> {
                  for (ConfigMap cm : listConfigMaps(client)) {
                    String name = cm.getMetadata().getName();
                    if (!before.containsKey(name)) {
                      continue; // kube-root-ca.crt, when the API server added it late
                    }
                    Map<String, String> labels = cm.getMetadata().getLabels();
                    assertThat(labels)
                        .as("%s keeps its member", name)
                        .containsEntry(SHARD, owner(three, ns, name));
                    if (moving.contains(name)) {
                      assertThat(labels).as("%s drained", name).containsEntry(DRAIN, "true");
                    } else {
                      assertThat(labels).as("%s not drained", name).doesNotContainKey(DRAIN);
                    }
                  }
                });
        await().atMost(PATIENCE).until(() -> sharder.drainsRequested() == moving.size());
        assertThat(sharder.liveMembers()).contains("member-d");

        // each member lets go, as a replica does: both labels off
        for (String name : moving) {
          client
              .configMaps()
              .withName(name)
              .patch(
                  PatchContext.of(PatchType.JSON_MERGE),
                  "{\"metadata\":{\"labels\":{\"" + SHARD + "\":null,\"" + DRAIN + "\":null}}}");
        }

        List<ConfigMap> after = awaitLabelledAsRing(client, four);
        int movedToD = 0;
        for (ConfigMap cm : after) {
          String name = cm.getMetadata().getName();
          if (!before.containsKey(name)) {
            continue; // kube-root-ca.crt, when the API server added it late
          }
          String was = before.get(name).getMetadata().getResourceVersion();
          if (moving.contains(name)) {
            assertThat(cm.getMetadata().getLabels()).containsEntry(SHARD, "member-d");
            movedToD++;
          } else {
            assertThat(cm.getMetadata().getResourceVersion())
                .as("%s, which stays, was never written", name)
                .isEqualTo(was);
          }
        }
        System.out.printf(
            "SharderIT join: %d of %d ConfigMaps moved to the 4th member (%.1f%%)%n",
            movedToD, after.size(), 100.0 * movedToD / after.size());
        assertThat(movedToD).isEqualTo(moving.size()).isPositive();
        await().atMost(PATIENCE).until(() -> sharder.moved() == moving.size());
        assertThat(sharder.drainsRequested()).isEqualTo(moving.size());
        assertThat(handOvers).hasSize(moving.size());
        assertThat(sharder.lastHandOver()).isPresent();
        assertThat(handOvers).allSatisfy(d -> assertThat(d).isPositive());
        System.out.printf(
            "SharderIT join: hand-overs (drain accepted to reassigned, the test acknowledging"
                + " all drains in one sequence): last %d ms, longest %d ms%n",
            sharder.lastHandOver().orElseThrow().toMillis(),
            handOvers.stream().mapToLong(Duration::toMillis).max().orElse(0));
      }
    }
  }

  @Test
  void aLeavingMembersShareMovesAtOnceAndASilentMembersAfterItsLease(KubernetesClient client)
      throws Exception {
    Duration shortLease = Duration.ofSeconds(4);
    try (Members members = new Members(client)) {
      // a and b renew once and hold for two minutes: while c is silent no Lease changes, so only
      // the sharder's own timer can count c out
      members.join("member-a", Duration.ofMinutes(2), null);
      members.join("member-b", Duration.ofMinutes(2), null);
      members.join("member-c", shortLease, Duration.ofMillis(500));
      createConfigMaps(client, 90, 0);
      try (Sharder sharder = sharder(client)) {
        sharder.start();
        assertThat(sharder.awaitSynced(PATIENCE)).isTrue();
        ShardRing abc = ShardRing.of(List.of("member-a", "member-b", "member-c"));
        ShardRing ac = ShardRing.of(List.of("member-a", "member-c"));
        ShardRing a = ShardRing.of(List.of("member-a"));
        Map<String, ConfigMap> start = byName(awaitLabelledAsRing(client, abc));
        Set<String> ofB = namesOf(start.values(), "member-b");
        Set<String> ofC = namesOf(start.values(), "member-c");
        assertThat(ofB).isNotEmpty();
        assertThat(ofC).isNotEmpty();

        try (LabelHistory history = LabelHistory.watch(client)) {
          members.leave("member-b");

          List<ConfigMap> afterLeave = awaitLabelledAsRing(client, ac);
          for (ConfigMap cm : afterLeave) {
            String name = cm.getMetadata().getName();
            if (!ofB.contains(name) && start.containsKey(name)) {
              assertThat(cm.getMetadata().getResourceVersion())
                  .as("%s of a member that stays was never written", name)
                  .isEqualTo(start.get(name).getMetadata().getResourceVersion());
            }
          }
          assertThat(sharder.liveMembers()).containsExactly("member-a", "member-c");

          Set<String> ofCNow = namesOf(afterLeave, "member-c");
          long lastRenewalSent = members.stopRenewing("member-c");
          List<ConfigMap> afterSilence = awaitLabelledAsRing(client, a);
          long seen = System.nanoTime();
          Duration delay = Duration.ofNanos(seen - lastRenewalSent);
          System.out.printf(
              "SharderIT silent member: lease %d s; its %d ConfigMaps seen reassigned %d ms"
                  + " after its last renewal was sent%n",
              shortLease.toSeconds(), ofCNow.size(), delay.toMillis());
          assertThat(delay)
              .as("a member is counted out no sooner than its lease duration")
              .isGreaterThanOrEqualTo(shortLease);
          assertThat(afterSilence).extracting(cm -> cm.getMetadata().getName()).containsAll(ofC);

          history.assertOpen();
          assertThat(history.drained()).as("objects ever seen with a drain label").isEmpty();
          assertThat(ours(history.writtenNames()))
              .as("the ConfigMaps written since b left")
              .isEqualTo(ours(union(ofB, ofC)));
          // b's objects once, then c's (its own and those it got from b) once more
          long moves = (long) ofB.size() + ofCNow.size();
          await().atMost(PATIENCE).until(() -> sharder.moved() == moves);
        }
        assertThat(sharder.drainsRequested()).isZero();
        assertThat(sharder.lastHandOver()).isEmpty();
      }
    }
  }

  @Test
  void theStoreKeepsMetadataOnlyWhateverTheObjectsSize(KubernetesClient client) throws Exception {
    int count = 300;
    try (Members members = new Members(client)) {
      members.join("member-a", Duration.ofSeconds(30), Duration.ofSeconds(5));
      createConfigMaps(client, count, 16);
      Measured small = measure(client);
      fillConfigMaps(client, count, 10 * 1024);
      Measured large = measure(client);
      System.out.printf(
          "SharderIT memory, %d ConfigMaps: data of 16 B each: sharder store %s, plain informer"
              + " %s; data of 10 KiB each: sharder store %s, plain informer %s%n",
          count, small.sharder(), small.plain(), large.sharder(), large.plain());
      // the one assertion: nothing of the data is kept
      assertThat(large.sharder().jsonBytes()).isLessThan(small.sharder().jsonBytes() + 2L * count);
    }
  }

  // --- the sharder and what is measured of it

  private static Sharder sharder(KubernetesClient client) {
    return new Sharder(
        client,
        client.getNamespace(),
        RING,
        List.of(ConfigMap.class),
        Set.of(client.getNamespace()),
        Ticker.system());
  }

  /** Heap held by a store (after full collections, so rough) and the JSON size of what it holds. */
  private record Footprint(long heapBytes, long jsonBytes) {
    @Override
    public String toString() {
      return String.format("heap %+d KiB, JSON %d KiB", heapBytes / 1024, jsonBytes / 1024);
    }
  }

  private record Measured(Footprint sharder, Footprint plain) {}

  private static Measured measure(KubernetesClient client) throws Exception {
    long base = heapAfterGc();
    Footprint sharderFootprint;
    try (Sharder sharder = sharder(client)) {
      sharder.start();
      assertThat(sharder.awaitSynced(PATIENCE)).isTrue();
      awaitLabelledAsRing(client, ShardRing.of(List.of("member-a")));
      await()
          .atMost(PATIENCE)
          .until(() -> sharder.assignments().getOrDefault("member-a", 0L) >= 300);
      long heap = heapAfterGc() - base;
      long json = 0;
      for (GenericKubernetesResource obj : sharder.stored()) {
        json += jsonBytes(client, obj);
      }
      sharderFootprint = new Footprint(heap, json);
    }
    base = heapAfterGc();
    SharedIndexInformer<ConfigMap> plain = client.configMaps().inform();
    try {
      await().atMost(PATIENCE).until(plain::hasSynced);
      long heap = heapAfterGc() - base;
      long json = 0;
      for (ConfigMap cm : plain.getStore().list()) {
        json += jsonBytes(client, cm);
      }
      return new Measured(sharderFootprint, new Footprint(heap, json));
    } finally {
      plain.stop();
    }
  }

  private static long jsonBytes(KubernetesClient client, Object obj) {
    return client.getKubernetesSerialization().asJson(obj).getBytes(StandardCharsets.UTF_8).length;
  }

  private static long heapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  // --- ConfigMaps on the API server

  private static void createConfigMaps(KubernetesClient client, int count, int dataBytes)
      throws Exception {
    parallel(
        count,
        i ->
            client
                .configMaps()
                .resource(
                    new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName(name(i))
                        .addToLabels("app", "demo")
                        .endMetadata()
                        .addToData("payload", "x".repeat(dataBytes))
                        .build())
                .create());
  }

  private static void fillConfigMaps(KubernetesClient client, int count, int dataBytes)
      throws Exception {
    String payload = "y".repeat(dataBytes);
    parallel(
        count,
        i ->
            client
                .configMaps()
                .withName(name(i))
                .patch(
                    PatchContext.of(PatchType.JSON_MERGE),
                    "{\"data\":{\"payload\":\"" + payload + "\"}}"));
  }

  /**
   * Runs {@code task} for 0..count-1 on four threads: creating hundreds of objects one by one is
   * slow.
   */
  private static void parallel(int count, IntConsumer task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        int n = i;
        done.add(pool.submit(() -> task.accept(n)));
      }
      for (Future<?> f : done) {
        f.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static String name(int i) {
    return String.format("cm-%03d", i);
  }

  private static List<ConfigMap> listConfigMaps(KubernetesClient client) {
    return client.configMaps().list().getItems();
  }

  /**
   * Waits until every ConfigMap of the namespace (the test's and the API server's own {@code
   * kube-root-ca.crt}) is labelled for its owner on {@code ring}, without a drain label.
   */
  private static List<ConfigMap> awaitLabelledAsRing(KubernetesClient client, ShardRing ring) {
    String ns = client.getNamespace();
    AtomicReference<List<ConfigMap>> last = new AtomicReference<>();
    await()
        .atMost(PATIENCE)
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              List<ConfigMap> all = listConfigMaps(client);
              for (ConfigMap cm : all) {
                String name = cm.getMetadata().getName();
                assertThat(cm.getMetadata().getLabels())
                    .as("labels of ConfigMap %s/%s", ns, name)
                    .containsEntry(SHARD, owner(ring, ns, name))
                    .doesNotContainKey(DRAIN);
              }
              last.set(all);
            });
    return last.get();
  }

  private static String owner(ShardRing ring, String ns, String name) {
    return ShardLabels.value(ring.ownerOf(ns, name).orElseThrow());
  }

  private static Map<String, ConfigMap> byName(List<ConfigMap> all) {
    Map<String, ConfigMap> byName = new HashMap<>();
    all.forEach(cm -> byName.put(cm.getMetadata().getName(), cm));
    return byName;
  }

  private static Map<String, Long> shares(List<ConfigMap> all, String prefix) {
    return all.stream()
        .filter(cm -> cm.getMetadata().getName().startsWith(prefix))
        .collect(
            Collectors.groupingBy(
                cm -> cm.getMetadata().getLabels().get(SHARD),
                TreeMap::new,
                Collectors.counting()));
  }

  private static Map<String, String> deviations(Map<String, Long> shares, long mean) {
    Map<String, String> out = new TreeMap<>();
    shares.forEach((m, n) -> out.put(m, String.format("%+d%%", (n - mean) * 100 / mean)));
    return out;
  }

  private static Set<String> namesOf(Collection<ConfigMap> all, String member) {
    return all.stream()
        .filter(cm -> member.equals(cm.getMetadata().getLabels().get(SHARD)))
        .map(cm -> cm.getMetadata().getName())
        .collect(Collectors.toSet());
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new HashSet<>(a);
    all.addAll(b);
    return all;
  }

  /** The test's own ConfigMaps among {@code names}. */
  private static Set<String> ours(Set<String> names) {
    return names.stream().filter(n -> n.startsWith("cm-")).collect(Collectors.toSet());
  }

  /** Every change of the namespace's ConfigMaps from now on, as a watch reports it. */
  private static final class LabelHistory implements AutoCloseable {
    private final ConcurrentLinkedQueue<ConfigMap> seen = new ConcurrentLinkedQueue<>();
    private final AtomicReference<WatcherException> closedBy = new AtomicReference<>();
    private Watch watch;

    static LabelHistory watch(KubernetesClient client) {
      LabelHistory history = new LabelHistory();
      String now = client.configMaps().list().getMetadata().getResourceVersion();
      history.watch =
          client
              .configMaps()
              .watch(
                  new ListOptionsBuilder().withResourceVersion(now).build(),
                  new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, ConfigMap cm) {
                      history.seen.add(cm);
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                      history.closedBy.set(cause);
                    }
                  });
      return history;
    }

    /** Fails when the watch ended early: then it did not see everything. */
    void assertOpen() {
      assertThat(closedBy.get()).as("the test's watch of ConfigMaps ended").isNull();
    }

    Set<String> drained() {
      return seen.stream()
          .filter(cm -> cm.getMetadata().getLabels().containsKey(DRAIN))
          .map(cm -> cm.getMetadata().getName())
          .collect(Collectors.toSet());
    }

    Set<String> writtenNames() {
      return seen.stream().map(cm -> cm.getMetadata().getName()).collect(Collectors.toSet());
    }

    @Override
    public void close() {
      if (watch != null) {
        watch.close();
      }
    }
  }

  /** The test's replicas: a real shard Lease each, renewed by a thread of the test. */
  private static final class Members implements AutoCloseable {
    private final KubernetesClient client;
    private final ScheduledExecutorService renewer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sharder-it-renewer");
              t.setDaemon(true);
              return t;
            });
    private final Map<String, ShardLease> leases = new ConcurrentHashMap<>();
    private final Map<String, ScheduledFuture<?>> renewals = new ConcurrentHashMap<>();
    private final Map<String, Long> lastSent = new ConcurrentHashMap<>();

    Members(KubernetesClient client) {
      this.client = client;
    }

    /** Creates the member's Lease now, then renews it every {@code every} (never when null). */
    void join(String identity, Duration lease, Duration every) {
      ShardLease shardLease =
          new ShardLease(
              client,
              client.getNamespace(),
              RING,
              identity,
              lease,
              new LeaseFence(Ticker.system(), lease.multipliedBy(4).dividedBy(5)),
              Ticker.system(),
              Clock.systemUTC());
      leases.put(identity, shardLease);
      long sent = System.nanoTime();
      shardLease.renew();
      lastSent.put(identity, sent);
      if (every != null) {
        renewals.put(
            identity,
            renewer.scheduleWithFixedDelay(
                () -> renew(identity), every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS));
      }
    }

    private void renew(String identity) {
      long sent = System.nanoTime();
      try {
        leases.get(identity).renew();
        lastSent.put(identity, sent);
      } catch (RuntimeException e) {
        System.err.printf("SharderIT: renewing %s failed: %s%n", identity, e);
      }
    }

    /**
     * Stops renewing; returns when the last renewal under way has ended, with the monotonic time
     * the last accepted renewal was sent at.
     */
    long stopRenewing(String identity) throws Exception {
      ScheduledFuture<?> renewal = renewals.remove(identity);
      if (renewal != null) {
        renewal.cancel(false);
      }
      renewer.submit(() -> {}).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
      return lastSent.get(identity);
    }

    /** Stops renewing and deletes the Lease, as a replica that shuts down does. */
    void leave(String identity) throws Exception {
      stopRenewing(identity);
      leases.get(identity).release();
    }

    @Override
    public void close() {
      renewer.shutdownNow();
    }
  }
}
