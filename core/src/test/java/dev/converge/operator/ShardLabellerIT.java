package dev.converge.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.operator.internal.LeaseFence;
import dev.converge.queue.internal.Ticker;
import dev.converge.shard.internal.ShardLabels;
import dev.converge.shard.internal.ShardLease;
import dev.converge.shard.internal.ShardRing;
import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The labeller against a real API server: the members are shard Leases written by {@link
 * ShardLease}, as replicas write them, and the labels it gives are compared with the ring the test
 * builds over the members it knows to be live.
 */
@ExtendWith(LocalClusterExtension.class)
class ShardLabellerIT {

  private static final String RING = "web-operator";
  private static final String SHARD = "shard.converge.dev/web-operator";
  private static final Duration PATIENCE = Duration.ofSeconds(90);

  /** Long enough that no member runs out while the test runs, however loaded the machine. */
  private static final Duration LEASE = Duration.ofMinutes(10);

  private static final List<String> NAMES =
      IntStream.range(0, 40).mapToObj(i -> "app-" + i).toList();

  @Test
  void labelsNewObjectsForTheRingsLiveMembersAndDropsAMemberWhoseLeaseIsDeleted(
      KubernetesClient client) {
    String ns = client.getNamespace();
    try (ShardLabeller labeller = ShardLabeller.watching(client, ns, RING)) {
      // No member yet: nothing to label, the sharder will.
      assertThat(labeller.labelsFor(object(ns, "app-0", Map.of()))).isEmpty();

      ShardLease a = member(client, "replica-a");
      ShardLease b = member(client, "replica-b");
      // An identity a label value cannot hold: the label carries its mapped form.
      ShardLease c = member(client, "node-7:replica/c");
      // A Lease of another ring in the same namespace is no member of this one.
      lease(client, "other-ring", "intruder").renew();

      Map<String, String> three =
          expected(ns, List.of("replica-a", "replica-b", "node-7:replica/c"));
      await("the labeller sees the three members")
          .atMost(PATIENCE)
          .untilAsserted(() -> assertThat(labelled(labeller, ns)).isEqualTo(three));
      assertThat(three.values())
          .as("the ring spreads 40 objects over all three members")
          .containsOnly("replica-a", "replica-b", ShardLabels.value("node-7:replica/c"));
      assertThat(ShardLabels.value("node-7:replica/c"))
          .doesNotContain(":", "/")
          .matches("[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?");
      assertThat(three).containsValue(ShardLabels.value("node-7:replica/c"));

      // An object that already names a member, one without a name yet, and no object at all.
      assertThat(labeller.labelsFor(object(ns, "app-1", Map.of(SHARD, "replica-b")))).isEmpty();
      assertThat(labeller.labelsFor(object(ns, "", Map.of()))).isEmpty();
      assertThat(labeller.labelsFor(object(ns, null, Map.of()))).isEmpty();
      assertThat(labeller.labelsFor(null)).isEmpty();
      // Another ring's label does not count as this ring's.
      assertThat(labeller.labelsFor(object(ns, "app-2", Map.of("shard.converge.dev/other", "x"))))
          .isEqualTo(Map.of(SHARD, three.get("app-2")));

      // replica-b leaves cleanly: its Lease is deleted, and it is out without waiting for it to
      // run out (ten minutes).
      b.release();
      Map<String, String> two = expected(ns, List.of("replica-a", "node-7:replica/c"));
      await("replica-b is out as soon as its Lease is gone")
          .atMost(PATIENCE)
          .untilAsserted(() -> assertThat(labelled(labeller, ns)).isEqualTo(two));
      assertThat(two.values()).doesNotContain("replica-b");
      // The objects of the members that stay keep their member.
      three.forEach(
          (name, member) -> {
            if (!member.equals("replica-b")) {
              assertThat(two.get(name)).as(name).isEqualTo(member);
            }
          });

      a.release();
      c.release();
      await("no member left: nothing to label")
          .atMost(PATIENCE)
          .untilAsserted(
              () -> assertThat(labeller.labelsFor(object(ns, "app-0", Map.of()))).isEmpty());
    }
  }

  /** The member of each of {@link #NAMES} on the ring over {@code members}, as a label value. */
  private static Map<String, String> expected(String ns, List<String> members) {
    ShardRing ring = ShardRing.of(members);
    Map<String, String> expected = new HashMap<>();
    for (String name : NAMES) {
      expected.put(name, ShardLabels.value(ring.ownerOf(ns, name).orElseThrow()));
    }
    return expected;
  }

  /** The member the labeller gives each of {@link #NAMES}, from the label it returns. */
  private static Map<String, String> labelled(ShardLabeller labeller, String ns) {
    Map<String, String> labelled = new HashMap<>();
    for (String name : NAMES) {
      Map<String, String> labels = labeller.labelsFor(object(ns, name, Map.of()));
      assertThat(labels.keySet()).as(name).containsExactly(SHARD);
      labelled.put(name, labels.get(SHARD));
    }
    return labelled;
  }

  private static ConfigMap object(String ns, String name, Map<String, String> labels) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withNamespace(ns)
        .withName(name)
        .withLabels(labels)
        .endMetadata()
        .build();
  }

  private static ShardLease member(KubernetesClient client, String identity) {
    ShardLease lease = lease(client, RING, identity);
    lease.renew();
    return lease;
  }

  private static ShardLease lease(KubernetesClient client, String ring, String identity) {
    return new ShardLease(
        client,
        client.getNamespace(),
        ring,
        identity,
        LEASE,
        new LeaseFence(Ticker.system(), LEASE.multipliedBy(4).dividedBy(5)),
        Ticker.system(),
        Clock.systemUTC());
  }
}
