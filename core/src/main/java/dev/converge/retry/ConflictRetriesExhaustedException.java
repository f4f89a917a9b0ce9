package dev.converge.retry;

/**
 * Thrown when every attempt of a {@link ConflictRetry} ended in 409 Conflict. The message names the
 * resource and the number of attempts; the cause is the last conflict.
 *
 * <p>Thrown out of a reconcile, it fails that reconcile like any error, and the work queue retries
 * the key with its backoff, by which time the competing writer has usually finished.
 */
public final class ConflictRetriesExhaustedException extends RuntimeException {

  /** The resource written, as {@code Kind namespace/name}. */
  private final String resource;

  /** How many attempts were made. */
  private final int attempts;

  /**
   * Reports that a write of {@code resource} conflicted on every attempt.
   *
   * @param resource the resource written, as {@code Kind namespace/name}
   * @param attempts how many attempts were made
   * @param lastConflict the 409 Conflict of the last attempt, kept as the cause
   */
  public ConflictRetriesExhaustedException(String resource, int attempts, Throwable lastConflict) {
    super(
        "gave up writing "
            + resource
            + " after "
            + attempts
            + " attempts: every attempt ended in"
            + " 409 Conflict (the object keeps changing under us); the reconcile will be retried with"
            + " backoff",
        lastConflict);
    this.resource = resource;
    this.attempts = attempts;
  }

  /**
   * The resource the write was for.
   *
   * @return the resource as {@code Kind namespace/name}
   */
  public String resource() {
    return resource;
  }

  /**
   * How many attempts were made, every one of them ending in a conflict.
   *
   * @return the number of attempts
   */
  public int attempts() {
    return attempts;
  }
}
