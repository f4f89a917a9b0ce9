package dev.converge.benchmarks.internal;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Fed by an informer, notes the moment each expected object first satisfies a condition (Running,
 * rolled out, ...) after {@link #start()}: the curve of objects done over time and the time until
 * the last one.
 */
public final class ConvergenceTracker<T extends HasMetadata> implements ResourceEventHandler<T> {

  private final Set<String> expected;
  private final Predicate<T> done;
  private final Map<String, Long> doneAt = new ConcurrentHashMap<>();
  private final CountDownLatch remaining;
  private volatile long startedNanos;
  private volatile boolean started;

  /**
   * @param expected keys {@code namespace/name} of the objects to wait for
   */
  public ConvergenceTracker(Set<String> expected, Predicate<T> done) {
    this.expected = Set.copyOf(expected);
    this.done = done;
    this.remaining = new CountDownLatch(this.expected.size());
  }

  /** From now on, objects that satisfy the condition are counted. */
  public void start() {
    startedNanos = System.nanoTime();
    started = true;
  }

  /** The moment {@link #start()} was called, in {@link System#nanoTime()}. */
  public long startedNanos() {
    return startedNanos;
  }

  @Override
  public void onAdd(T object) {
    observe(object);
  }

  @Override
  public void onUpdate(T oldObject, T newObject) {
    observe(newObject);
  }

  @Override
  public void onDelete(T object, boolean deletedFinalStateUnknown) {
    // a deleted object does not converge; the wait reports it as missing
  }

  private void observe(T object) {
    if (!started) {
      return;
    }
    String key = object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
    if (expected.contains(key)
        && done.test(object)
        && doneAt.putIfAbsent(key, System.nanoTime()) == null) {
      remaining.countDown();
    }
  }

  /**
   * Waits until every expected object is done; returns the seconds from start to the last one.
   *
   * @throws IllegalStateException after {@code timeout}, naming how many and which objects are not
   *     done
   */
  public double awaitAll(Duration timeout, String what) {
    try {
      if (!remaining.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        List<String> missing = new ArrayList<>(expected);
        missing.removeAll(doneAt.keySet());
        Collections.sort(missing);
        throw new IllegalStateException(
            missing.size()
                + " of "
                + expected.size()
                + " objects not "
                + what
                + " after "
                + timeout.toSeconds()
                + " s, e.g. "
                + missing.subList(0, Math.min(5, missing.size())));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for objects " + what, e);
    }
    return lastSeconds();
  }

  /** Seconds from start until the last object was done so far. */
  public double lastSeconds() {
    return doneAt.values().stream().mapToLong(t -> t - startedNanos).max().orElse(0) / 1e9;
  }

  /** The moment each object done so far was done, in {@link System#nanoTime()}, by key. */
  public Map<String, Long> doneAtNanos() {
    return Map.copyOf(doneAt);
  }

  /** Seconds from start at which each object was done, in order. */
  public List<Double> doneSeconds() {
    return doneAt.values().stream().sorted().map(t -> (t - startedNanos) / 1e9).toList();
  }
}
