package dev.converge.finalizer;

import java.time.Duration;
import java.util.Objects;

/** What a {@link FinalizerHook} reports after one cleanup attempt that did not fail. */
public sealed interface CleanupResult {

  /**
   * External resources are gone; the finalizer may be removed.
   *
   * @return the result that lets the deletion finish
   */
  static CleanupResult done() {
    return Done.INSTANCE;
  }

  /**
   * Cleanup is under way but not finished (an external deletion is still in progress); keep the
   * finalizer and call the hook again after {@code delay}. Unlike throwing, this is no failure: no
   * backoff grows and no error is reported.
   *
   * @param delay when to call the hook again; positive
   * @return the result that keeps the finalizer for now
   * @throws IllegalArgumentException when {@code delay} is not positive
   */
  static CleanupResult retryAfter(Duration delay) {
    return new RetryAfter(delay);
  }

  /** See {@link #done()}. */
  enum Done implements CleanupResult {
    /** The only value: cleanup finished. */
    INSTANCE
  }

  /**
   * See {@link #retryAfter(Duration)}.
   *
   * @param delay when to call the hook again
   */
  record RetryAfter(Duration delay) implements CleanupResult {
    /**
     * Checks the delay.
     *
     * @param delay when to call the hook again
     * @throws IllegalArgumentException when {@code delay} is not positive
     */
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
