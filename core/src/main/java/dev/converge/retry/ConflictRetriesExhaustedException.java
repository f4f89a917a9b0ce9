package dev.converge.retry;

/**
 * Thrown when every attempt of a {@link ConflictRetry} ended in 409 Conflict. The message names the
 * resource and the number of attempts; the cause is the last conflict.
 */
public final class ConflictRetriesExhaustedException extends RuntimeException {

  private final String resource;
  private final int attempts;

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

  /** The resource as {@code Kind namespace/name}. */
  public String resource() {
    return resource;
  }

  public int attempts() {
    return attempts;
  }
}
