package dev.converge.finalizer;

import java.time.Duration;
import java.util.Objects;

/** What a {@link FinalizerHook} reports after one cleanup attempt that did not fail. */
public sealed interface CleanupResult {

  /** External resources are gone; the finalizer may be removed. */
  static CleanupResult done() {
    return Done.INSTANCE;
  }

  /**
   * Cleanup is under way but not finished (an external deletion is still in progress); keep the
   * finalizer and call the hook again after {@code delay}.
   */
  static CleanupResult retryAfter(Duration delay) {
    return new RetryAfter(delay);
  }

  /** See {@link #done()}. */
  enum Done implements CleanupResult {
    INSTANCE
  }

  /** See {@link #retryAfter(Duration)}. */
  record RetryAfter(Duration delay) implements CleanupResult {
    public RetryAfter {
      Objects.requireNonNull(delay, "delay");
      if (delay.isNegative() || delay.isZero()) {
        throw new IllegalArgumentException(
            "cleanup retry delay must be positive, was "
                + delay
                + "; return done() when cleanup finished, or throw to retry with backoff");
      }
    }
  }
}
