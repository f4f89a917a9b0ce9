package dev.converge.shard.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.shard.internal.SharderDecision.Action;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SharderDecisionTest {

  private static final ShardLabels KEYS = ShardLabels.of("widgets");
  private static final String SHARD = "shard.converge.dev/widgets";
  private static final String DRAIN = "drain.shard.converge.dev/widgets";

  /** Members a and b; the ring gives apps/obj-2 to a and apps/obj-0 to b. */
  private static final ShardRing AB = ShardRing.of(List.of("a", "b"));

  private static final Set<String> LIVE_AB = Set.of("a", "b");

  @BeforeAll
  static void fixture() {
    assertThat(KEYS.shardKey()).isEqualTo(SHARD);
    assertThat(KEYS.drainKey()).isEqualTo(DRAIN);
    assertThat(AB.ownerOf("apps", "obj-2")).contains("a");
    assertThat(AB.ownerOf("apps", "obj-0")).contains("b");
  }

  private static Map<String, String> labels(String... keyValues) {
    Map<String, String> labels = new HashMap<>();
    labels.put("app", "demo"); // a label of the user's, never looked at
    for (int i = 0; i < keyValues.length; i += 2) {
      labels.put(keyValues[i], keyValues[i + 1]);
    }
    return labels;
  }

  private static SharderDecision decideAb(String name, Map<String, String> labels) {
    return SharderDecision.decide(AB, LIVE_AB, KEYS, "apps", name, labels);
  }

  @Test
  void withoutLiveMembersNothingIsTouchedWhateverTheLabels() {
    ShardRing empty = ShardRing.of(List.of());
    for (Map<String, String> l :
        List.of(labels(), labels(SHARD, "a"), labels(SHARD, "a", DRAIN, "true"))) {
      assertThat(SharderDecision.decide(empty, Set.of(), KEYS, "apps", "obj-2", l).action())
          .isEqualTo(Action.NONE);
    }
    assertThat(SharderDecision.decide(empty, Set.of(), KEYS, "apps", "obj-2", null).action())
        .isEqualTo(Action.NONE);
  }

  @Test
  void anUnassignedObjectGoesToItsRingOwner() {
    assertThat(decideAb("obj-2", labels())).isEqualTo(new SharderDecision(Action.ASSIGN, "a"));
    assertThat(decideAb("obj-0", labels())).isEqualTo(new SharderDecision(Action.ASSIGN, "b"));
    assertThat(decideAb("obj-0", null)).isEqualTo(new SharderDecision(Action.ASSIGN, "b"));
  }

  @Test
  void anObjectOfAMemberNotLiveGoesToItsRingOwnerAtOnceEvenWhileDraining() {
    assertThat(decideAb("obj-2", labels(SHARD, "c")))
        .isEqualTo(new SharderDecision(Action.ASSIGN, "a"));
    assertThat(decideAb("obj-2", labels(SHARD, "c", DRAIN, "true")))
        .isEqualTo(new SharderDecision(Action.ASSIGN, "a"));
    assertThat(decideAb("obj-0", labels(SHARD, "")))
        .as("an empty shard label names no member")
        .isEqualTo(new SharderDecision(Action.ASSIGN, "b"));
  }

  @Test
  void aDrainLabelWithoutAShardLabelIsReplacedByTheOwner() {
    assertThat(decideAb("obj-0", labels(DRAIN, "true")))
        .isEqualTo(new SharderDecision(Action.ASSIGN, "b"));
  }

  @Test
  void aLiveMemberHoldingAnObjectTheRingGivesToAnotherIsAskedToLetItGo() {
    assertThat(decideAb("obj-2", labels(SHARD, "b")))
        .isEqualTo(new SharderDecision(Action.DRAIN, "b"));
    assertThat(decideAb("obj-0", labels(SHARD, "a")))
        .isEqualTo(new SharderDecision(Action.DRAIN, "a"));
  }

  @Test
  void aDrainingObjectWaitsForItsLiveMemberWhoeverTheRingNames() {
    assertThat(decideAb("obj-2", labels(SHARD, "b", DRAIN, "true")))
        .isEqualTo(new SharderDecision(Action.WAIT, "b"));
    assertThat(decideAb("obj-2", labels(SHARD, "a", DRAIN, "true")))
        .as("the ring named the member again meanwhile: its acknowledgement is still awaited")
        .isEqualTo(new SharderDecision(Action.WAIT, "a"));
  }

  @Test
  void anObjectWithItsRingOwnerIsLeftAlone() {
    assertThat(decideAb("obj-2", labels(SHARD, "a")))
        .isEqualTo(new SharderDecision(Action.NONE, "a"));
    assertThat(decideAb("obj-0", labels(SHARD, "b")))
        .isEqualTo(new SharderDecision(Action.NONE, "b"));
  }

  @Test
  void membersAreNamedByTheirLabelValueNotTheirIdentity() {
    ShardRing ring = ShardRing.of(List.of("replica:0", "b"));
    Set<String> live = Set.of("replica-0-e63f69d6be295635", "b");
    assertThat(ShardLabels.value("replica:0")).isEqualTo("replica-0-e63f69d6be295635");
    assertThat(ring.ownerOf("apps", "obj-2")).contains("replica:0");

    assertThat(SharderDecision.decide(ring, live, KEYS, "apps", "obj-2", labels()))
        .isEqualTo(new SharderDecision(Action.ASSIGN, "replica-0-e63f69d6be295635"));
    assertThat(
            SharderDecision.decide(
                ring, live, KEYS, "apps", "obj-2", labels(SHARD, "replica-0-e63f69d6be295635")))
        .isEqualTo(new SharderDecision(Action.NONE, "replica-0-e63f69d6be295635"));
    assertThat(
            SharderDecision.decide(ring, live, KEYS, "apps", "obj-2", labels(SHARD, "replica:0")))
        .as("the raw identity is not a member's label value")
        .isEqualTo(new SharderDecision(Action.ASSIGN, "replica-0-e63f69d6be295635"));
  }

  @Test
  void aClusterScopedObjectIsPlacedByItsNameAlone() {
    assertThat(AB.ownerOf(null, "obj-5")).contains("a");
    assertThat(SharderDecision.decide(AB, LIVE_AB, KEYS, null, "obj-5", labels()))
        .isEqualTo(new SharderDecision(Action.ASSIGN, "a"));
    assertThat(SharderDecision.decide(AB, LIVE_AB, KEYS, null, "obj-5", labels(SHARD, "b")))
        .isEqualTo(new SharderDecision(Action.DRAIN, "b"));
  }
}
