package dev.converge.queue.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** A ticker that only moves when told to; for deterministic tests of delays and backoff. */
public final class ManualTicker implements Ticker {

  /** A ticker at zero that moves only when advanced. */
  public ManualTicker() {}

  private final AtomicLong now = new AtomicLong();
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

  @Override
  public long nanoTime() {
    return now.get();
  }

  @Override
  public void onAdvance(Runnable listener) {
    listeners.add(listener);
  }

  /**
   * Moves time forward and wakes everything waiting on this ticker.
   *
   * @param by how far to move; zero or more
   * @throws IllegalArgumentException when {@code by} is negative
   */
  public void advance(Duration by) {
    if (by.isNegative()) {
      throw new IllegalArgumentException("time cannot go backwards: " + by);
    }
    now.addAndGet(by.toNanos());
    listeners.forEach(Runnable::run);
  }
}
