package dev.converge.shard.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A consistent-hash ring over the live shards of one operator: which shard owns an object.
 *
 * <p>Each shard stands on the ring at {@link #DEFAULT_VIRTUAL_NODES} points (virtual nodes), so the
 * objects spread evenly however few shards there are, and a shard that joins or leaves moves only
 * the objects between its points and its neighbours': about 1/N of them, never an object between
 * two shards that both stay. An object's point is the hash of {@code namespace/name} (of {@code
 * name} for a cluster-scoped object); the hash is computed here, the same in every JVM and every
 * release, since replicas of different versions must agree during a rolling update.
 *
 * <p>Immutable; build a new ring when the membership changes.
 */
public final class ShardRing {

  /**
   * Points per shard. With 128, the arcs of three members could differ by a third of the mean (26%,
   * 35.5% and 38.5% of the keys for three real identities); with 512 they stay within a few per
   * cent of it for every identity set tried, at the cost of a few kilobytes per ring.
   */
  public static final int DEFAULT_VIRTUAL_NODES = 512;

  private final List<String> shards;
  private final long[] points;
  private final String[] owners;

  private ShardRing(SortedSet<String> shards, int virtualNodes) {
    this.shards = List.copyOf(shards);
    int n = shards.size() * virtualNodes;
    long[] hashes = new long[n];
    String[] names = new String[n];
    int i = 0;
    for (String shard : shards) {
      for (int v = 0; v < virtualNodes; v++) {
        hashes[i] = hash(shard + "#" + v);
        names[i] = shard;
        i++;
      }
    }
    // sort the points, carrying their owners along (ties, vanishingly rare, go to the smaller name)
    Integer[] order = new Integer[n];
    for (int k = 0; k < n; k++) {
      order[k] = k;
    }
    Arrays.sort(
        order,
        (a, b) -> {
          int c = Long.compareUnsigned(hashes[a], hashes[b]);
          return c != 0 ? c : names[a].compareTo(names[b]);
        });
    this.points = new long[n];
    this.owners = new String[n];
    for (int k = 0; k < n; k++) {
      points[k] = hashes[order[k]];
      owners[k] = names[order[k]];
    }
  }

  /**
   * A ring over {@code shards} with the default number of virtual nodes.
   *
   * @param shards the names of the live shards; duplicates count once
   * @return the ring; empty when there are no shards
   */
  public static ShardRing of(Collection<String> shards) {
    return of(shards, DEFAULT_VIRTUAL_NODES);
  }

  /**
   * A ring over {@code shards} with {@code virtualNodes} points per shard.
   *
   * @param shards the names of the live shards; duplicates count once
   * @param virtualNodes points per shard, at least 1
   * @return the ring
   */
  public static ShardRing of(Collection<String> shards, int virtualNodes) {
    if (virtualNodes < 1) {
      throw new IllegalArgumentException("virtual nodes must be at least 1, not " + virtualNodes);
    }
    SortedSet<String> names = new TreeSet<>();
    for (String shard : shards) {
      if (Objects.requireNonNull(shard, "shard").isBlank()) {
        throw new IllegalArgumentException("a shard name must not be blank");
      }
      names.add(shard);
    }
    return new ShardRing(names, virtualNodes);
  }

  /**
   * The live shards, sorted by name.
   *
   * @return the shards on the ring
   */
  public List<String> shards() {
    return shards;
  }

  /**
   * The shard that owns the object {@code namespace/name}.
   *
   * @param namespace the object's namespace; null or empty for a cluster-scoped object
   * @param name the object's name
   * @return the owning shard; empty when the ring has no shard
   */
  public Optional<String> ownerOf(String namespace, String name) {
    if (points.length == 0) {
      return Optional.empty();
    }
    long key = hash(namespace == null || namespace.isEmpty() ? name : namespace + "/" + name);
    int i = firstAtOrAfter(key);
    return Optional.of(owners[i == points.length ? 0 : i]);
  }

  private int firstAtOrAfter(long key) {
    int lo = 0;
    int hi = points.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(points[mid], key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * A 64-bit hash of the UTF-8 bytes of {@code text}: FNV-1a, then a finalizing mix so that keys
   * differing in their last characters land far apart on the ring. Fixed forever: replicas must
   * agree on it.
   */
  static long hash(String text) {
    long h = 0xcbf29ce484222325L;
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
  }

  @Override
  public String toString() {
    return "ShardRing" + shards;
  }
}
