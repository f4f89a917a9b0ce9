package dev.converge.benchmarks.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * How long objects waited under a burst, each from the moment the harness sent its create to the
 * moment the harness's watch saw it reach a goal (its Deployment created, its status Running): what
 * a user who creates one object among many waits. Percentiles by nearest rank, in seconds.
 */
public record Lags(int count, double p50, double p90, double p99, double max) {

  /**
   * The lags of every object that reached the goal, {@code doneAt} less {@code sentAt} for each key
   * present in both (both in {@link System#nanoTime()}); null when none did.
   */
  public static Lags between(Map<String, Long> sentAt, Map<String, Long> doneAt) {
    List<Double> seconds = new ArrayList<>();
    doneAt.forEach(
        (key, done) -> {
          Long sent = sentAt.get(key);
          if (sent != null) {
            seconds.add((done - sent) / 1e9);
          }
        });
    return seconds.isEmpty() ? null : of(seconds);
  }

  /** The percentiles of {@code seconds}, which must not be empty. */
  public static Lags of(Collection<Double> seconds) {
    if (seconds.isEmpty()) {
      throw new IllegalArgumentException("no lags to take percentiles of");
    }
    List<Double> sorted = seconds.stream().sorted().toList();
    return new Lags(
        sorted.size(),
        rank(sorted, 50),
        rank(sorted, 90),
        rank(sorted, 99),
        sorted.get(sorted.size() - 1));
  }

  /** The nearest-rank percentile: the smallest value with at least p% of the values at or below. */
  private static double rank(List<Double> sorted, int p) {
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, index));
  }
}
