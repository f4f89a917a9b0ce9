package dev.converge.queue;

import java.time.Duration;
import java.util.Objects;

/**
 * Per-key retry delay: {@code initial * 2^(failures-1)}, capped at {@code max}. The defaults (5 ms
 * doubling to 1000 s) are the ones controller-based operators are known for: fast retries for a
 * blip, minutes for something that stays broken.
 *
 * @param initial delay after the first failure
 * @param max upper bound for any delay
 */
public record ExponentialBackoff(Duration initial, Duration max) {

  /** 5 ms doubling to 1000 s. */
  public static final ExponentialBackoff DEFAULT =
      new ExponentialBackoff(Duration.ofMillis(5), Duration.ofSeconds(1000));

  /**
   * Checks the bounds.
   *
   * @param initial delay after the first failure
   * @param max upper bound for any delay
   * @throws IllegalArgumentException when {@code initial} is not positive or {@code max} is shorter
   *     than {@code initial}
   */
  public ExponentialBackoff {
    Objects.requireNonNull(initial, "initial");
    Objects.requireNonNull(max, "max");
    if (initial.isNegative() || initial.isZero()) {
      throw new IllegalArgumentException("initial backoff must be positive, got " + initial);
    }
    if (max.compareTo(initial) < 0) {
      throw new IllegalArgumentException(
          "max backoff " + max + " is shorter than the initial backoff " + initial);
    }
  }

  /**
   * The delay before the next attempt after {@code failures} consecutive failures (1 = first).
   *
   * @param failures the number of consecutive failures, 1 or more
   * @return {@code initial * 2^(failures-1)}, at most {@code max}
   * @throws IllegalArgumentException when {@code failures} is less than 1
   */
  public Duration delayAfter(int failures) {
    if (failures < 1) {
      throw new IllegalArgumentException("failures must be >= 1, got " + failures);
    }
    int shift = failures - 1;
    long initialNanos = initial.toNanos();
    // Cap before multiplying so that large failure counts cannot overflow.
    if (shift >= 62 || initialNanos > (max.toNanos() >> shift)) {
      return max;
    }
    return Duration.ofNanos(initialNanos << shift);
  }
}
