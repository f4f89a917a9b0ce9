package dev.converge.benchmarks.internal;

import java.util.HashMap;
import java.util.Map;

/**
 * Counters read from kube-apiserver's {@code /metrics} at one moment: every request by verb and
 * resource ({@code apiserver_request_total}, everyone's), and the requests of the measured client
 * by verb and resource (from the flow schemas that classify it, see {@link ClientFlowSchemas}).
 */
public record MetricsSnapshot(Map<RequestKey, Long> all, Map<RequestKey, Long> client) {

  public MetricsSnapshot {
    all = Map.copyOf(all);
    client = Map.copyOf(client);
  }

  /** What was counted between {@code earlier} and this snapshot. */
  public MetricsSnapshot since(MetricsSnapshot earlier) {
    return new MetricsSnapshot(minus(all, earlier.all), minus(client, earlier.client));
  }

  /** The client's writes (create, update, patch, delete). */
  public long clientWrites() {
    return client.entrySet().stream()
        .filter(e -> e.getKey().isWrite())
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  /** The client's reads (get, list). */
  public long clientReads() {
    return client.entrySet().stream()
        .filter(e -> e.getKey().isRead())
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  /** Everyone's writes, the client's included. */
  public long allWrites() {
    return all.entrySet().stream()
        .filter(e -> e.getKey().isWrite())
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  /** Everyone's reads, the client's included. */
  public long allReads() {
    return all.entrySet().stream()
        .filter(e -> e.getKey().isRead())
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  /**
   * Everyone else's writes: all minus the client's. (Watches are not split: the server counts a
   * watch in {@code apiserver_request_total} only when it ends, but classifies it when it starts.)
   */
  public long otherWrites() {
    return Math.max(0, allWrites() - clientWrites());
  }

  /** Everyone else's reads: all minus the client's. */
  public long otherReads() {
    return Math.max(0, allReads() - clientReads());
  }

  private static Map<RequestKey, Long> minus(
      Map<RequestKey, Long> now, Map<RequestKey, Long> before) {
    Map<RequestKey, Long> out = new HashMap<>();
    now.forEach(
        (key, count) -> {
          long delta = count - before.getOrDefault(key, 0L);
          if (delta > 0) {
            out.put(key, delta);
          }
        });
    return out;
  }
}
