package dev.converge.shard.internal;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The labels a shard ring puts on the objects it shares out.
 *
 * <p>{@code shard.converge.dev/<ring>: <member>} names the member that reconciles the object; a
 * replica's informers select on it, so each caches its share only. {@code
 * drain.shard.converge.dev/<ring>: "true"} asks the member to hand the object over: it finishes any
 * reconcile of the object in flight, starts no other, and removes both labels; only then is the
 * object given to another member.
 *
 * <p>A label's name part and value hold at most 63 characters of a restricted set, where a ring's
 * name and a member's identity may hold more: both are mapped to a valid form, the same way by
 * every replica, and one too long is cut and given a hash of the whole so that two long names do
 * not meet.
 */
public final class ShardLabels {

  /** The prefix of the label naming an object's member. */
  public static final String SHARD_PREFIX = "shard.converge.dev/";

  /** The prefix of the label asking a member to hand an object over. */
  public static final String DRAIN_PREFIX = "drain.shard.converge.dev/";

  private static final int MAX = 63;
  private static final Pattern INVALID = Pattern.compile("[^A-Za-z0-9._-]");
  private static final Pattern EDGES = Pattern.compile("^[^A-Za-z0-9]+|[^A-Za-z0-9]+$");

  private final String shardKey;
  private final String drainKey;

  private ShardLabels(String ring) {
    String part = valid(ring.toLowerCase(Locale.ROOT));
    this.shardKey = SHARD_PREFIX + part;
    this.drainKey = DRAIN_PREFIX + part;
  }

  /**
   * The labels of {@code ring}.
   *
   * @param ring the ring's name
   * @return its labels
   */
  public static ShardLabels of(String ring) {
    if (ring == null || ring.isBlank()) {
      throw new IllegalArgumentException("shard ring name must not be blank");
    }
    return new ShardLabels(ring);
  }

  /** The key of the label naming an object's member. */
  public String shardKey() {
    return shardKey;
  }

  /** The key of the label asking a member to hand an object over. */
  public String drainKey() {
    return drainKey;
  }

  /**
   * The value of the shard label for {@code identity}.
   *
   * @param identity a member's identity
   * @return a valid label value, the same for the same identity
   */
  public static String value(String identity) {
    return valid(identity);
  }

  /**
   * The member an object is assigned to, as its shard label names it.
   *
   * @param labels the object's labels, possibly null
   * @return the label's value, or null when unassigned
   */
  public String memberOf(Map<String, String> labels) {
    return labels == null ? null : labels.get(shardKey);
  }

  /**
   * Whether an object is being handed over.
   *
   * @param labels the object's labels, possibly null
   * @return true when the drain label is on it
   */
  public boolean draining(Map<String, String> labels) {
    return labels != null && labels.containsKey(drainKey);
  }

  private static String valid(String raw) {
    String cleaned = EDGES.matcher(INVALID.matcher(raw).replaceAll("-")).replaceAll("");
    if (cleaned.length() <= MAX && cleaned.equals(raw) && !cleaned.isEmpty()) {
      return cleaned;
    }
    String hash = Long.toHexString(fnv(raw));
    int keep = Math.min(cleaned.length(), MAX - hash.length() - 1);
    String head = EDGES.matcher(cleaned.substring(0, keep)).replaceAll("");
    return head.isEmpty() ? hash : head + "-" + hash;
  }

  private static long fnv(String s) {
    long h = 0xcbf29ce484222325L;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }
}
