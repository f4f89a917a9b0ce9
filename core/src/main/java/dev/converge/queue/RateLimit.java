package dev.converge.queue;

/**
 * The overall limit on retries of one work queue, beside the per-key {@link ExponentialBackoff}: a
 * token bucket that refills at {@code perSecond} and holds at most {@code burst} tokens. Each retry
 * ({@code addRateLimited}) takes a token and waits for the later of its own backoff and the bucket.
 * After an outage, when every key fails at once, the per-key backoff alone would send thousands of
 * retries within milliseconds; the bucket spreads them out. Fresh events ({@code add}) are never
 * limited.
 *
 * @param perSecond tokens added per second; must be positive
 * @param burst tokens the bucket holds when full; at least 1
 */
public record RateLimit(double perSecond, int burst) {

  /** 10 retries per second with bursts of 100, the default of controller-runtime. */
  public static final RateLimit DEFAULT = new RateLimit(10, 100);

  /**
   * Checks the limit.
   *
   * @param perSecond tokens added per second; must be positive
   * @param burst tokens the bucket holds when full; at least 1
   * @throws IllegalArgumentException when {@code perSecond} is not a positive finite number or
   *     {@code burst} is less than 1
   */
  public RateLimit {
    if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
      throw new IllegalArgumentException(
          "rate limit: perSecond must be a positive finite number, got "
              + perSecond
              + "; use RateLimit.unlimited() for no overall limit");
    }
    if (burst < 1) {
      throw new IllegalArgumentException("rate limit: burst must be at least 1, got " + burst);
    }
  }

  /**
   * No overall limit: only the per-key backoff spaces retries. Use it only where retries are cheap
   * for the API server.
   *
   * @return a limit that never delays a retry
   */
  public static RateLimit unlimited() {
    return new RateLimit(Double.MAX_VALUE, Integer.MAX_VALUE);
  }

  /**
   * Whether this is the limit of {@link #unlimited()}.
   *
   * @return true for {@link #unlimited()}
   */
  public boolean isUnlimited() {
    return perSecond == Double.MAX_VALUE;
  }
}
