package dev.converge.shard.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShardRingTest {

  private static final int OBJECTS = 3_000;

  private static Map<String, String> assign(ShardRing ring) {
    Map<String, String> owner = new HashMap<>();
    for (int i = 0; i < OBJECTS; i++) {
      String ns = "team-" + (i % 10);
      String name = "app-" + i;
      owner.put(ns + "/" + name, ring.ownerOf(ns, name).orElseThrow());
    }
    return owner;
  }

  private static Map<String, Integer> counts(Map<String, String> owners) {
    Map<String, Integer> counts = new HashMap<>();
    owners.values().forEach(s -> counts.merge(s, 1, Integer::sum));
    return counts;
  }

  @Test
  void threeShardsShareThreeThousandObjectsWithinFifteenPercent() {
    Map<String, Integer> counts = counts(assign(ShardRing.of(List.of("a", "b", "c"))));

    assertThat(counts).containsOnlyKeys("a", "b", "c");
    counts.values().forEach(n -> assertThat(n).isBetween(850, 1150));
  }

  @Test
  void aJoiningShardTakesObjectsOnlyForItself() {
    Map<String, String> before = assign(ShardRing.of(List.of("a", "b", "c")));
    Map<String, String> after = assign(ShardRing.of(List.of("a", "b", "c", "d")));

    long moved = 0;
    for (var e : before.entrySet()) {
      String now = after.get(e.getKey());
      if (!now.equals(e.getValue())) {
        assertThat(now).as("an object that moves, moves to the new shard").isEqualTo("d");
        moved++;
      }
    }
    // about a quarter moves to d, nothing moves between the shards that stay
    assertThat(moved).isBetween(OBJECTS / 4 - 300L, OBJECTS / 4 + 300L);
  }

  @Test
  void aLeavingShardsObjectsAloneMove() {
    Map<String, String> before = assign(ShardRing.of(List.of("a", "b", "c")));
    Map<String, String> after = assign(ShardRing.of(List.of("a", "c")));

    before.forEach(
        (key, owner) -> {
          if (!owner.equals("b")) {
            assertThat(after.get(key)).as(key).isEqualTo(owner);
          }
        });
    assertThat(after.values()).doesNotContain("b");
  }

  @Test
  void theOrderAndRepetitionOfMembersDoNotMatter() {
    assertThat(assign(ShardRing.of(List.of("c", "a", "b", "a"))))
        .isEqualTo(assign(ShardRing.of(List.of("a", "b", "c"))));
  }

  @Test
  void theHashIsFixed() {
    // Replicas of different releases must agree: these values may never change. They were
    // computed apart from this code (FNV-1a 64 of the UTF-8 bytes, then MurmurHash3's fmix64).
    assertThat(ShardRing.hash("")).isEqualTo(0xefd01f60ba992926L);
    assertThat(ShardRing.hash("team-1/app-1")).isEqualTo(0x230f3d24b213512fL);
    assertThat(ShardRing.hash("\u00e9")).isEqualTo(0x9d55ccb9ba86763bL);
  }

  @Test
  void clusterScopedObjectsHashByName() {
    ShardRing ring = ShardRing.of(List.of("a", "b", "c"));
    assertThat(ring.ownerOf(null, "x")).isEqualTo(ring.ownerOf("", "x"));
  }

  @Test
  void anEmptyRingOwnsNothingAndBadInputIsRefused() {
    assertThat(ShardRing.of(List.of()).ownerOf("ns", "x")).isEmpty();
    assertThatThrownBy(() -> ShardRing.of(List.of(" ")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("blank");
    assertThatThrownBy(() -> ShardRing.of(List.of("a"), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("virtual nodes");
  }
}
