package dev.converge.queue.internal;

import dev.converge.queue.RateLimit;
import java.time.Duration;

/**
 * A token bucket on a {@link Ticker}: {@link #reserve()} takes one token now and says how long the
 * caller must wait for it. Tokens may go into debt, so a burst of reservations is spread evenly at
 * the configured rate instead of being refused. Not thread-safe: the work queue calls it under its
 * lock.
 */
final class TokenBucket {

  private final RateLimit limit;
  private final Ticker ticker;
  private double tokens;
  private long last;

  TokenBucket(RateLimit limit, Ticker ticker) {
    this.limit = limit;
    this.ticker = ticker;
    this.tokens = limit.burst();
    this.last = ticker.nanoTime();
  }

  /** Takes one token; the delay until it is really available (zero when the bucket had one). */
  Duration reserve() {
    if (limit.isUnlimited()) {
      return Duration.ZERO;
    }
    long now = ticker.nanoTime();
    double refill = (now - last) / 1e9 * limit.perSecond();
    last = now;
    tokens = Math.min(limit.burst(), tokens + refill);
    tokens -= 1;
    if (tokens >= 0) {
      return Duration.ZERO;
    }
    return Duration.ofNanos((long) Math.ceil(-tokens / limit.perSecond() * 1e9));
  }
}
