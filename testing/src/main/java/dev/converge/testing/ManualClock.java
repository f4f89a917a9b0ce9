package dev.converge.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A wall clock, in UTC, that moves only when a test advances it: for code that takes a {@link
 * Clock} (timestamps, expiry, intervals), so that what depends on time is proven without sleeping.
 * Safe to read from several threads.
 */
public final class ManualClock extends Clock {

  private volatile Instant now;

  /**
   * A clock standing at {@code start}.
   *
   * @param start the instant it reads until advanced
   */
  public ManualClock(Instant start) {
    this.now = start;
  }

  /**
   * Moves the clock forward.
   *
   * @param by how far; must not be negative
   * @throws IllegalArgumentException when {@code by} is negative
   */
  public synchronized void advance(Duration by) {
    if (by.isNegative()) {
      throw new IllegalArgumentException("a clock moves forward only, not by " + by);
    }
    now = now.plus(by);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  /** The same clock: it reads instants, which have no zone. */
  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return now;
  }
}
