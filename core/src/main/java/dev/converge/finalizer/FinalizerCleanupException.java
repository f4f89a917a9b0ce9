package dev.converge.finalizer;

/**
 * A {@link FinalizerHook} failed; the finalizer stays on the object and the reconcile is retried.
 * The message names the resource and the finalizer; the cause is the hook's exception.
 */
public final class FinalizerCleanupException extends RuntimeException {

  /**
   * Reports a failed cleanup.
   *
   * @param message names the resource and the finalizer and says that cleanup will be retried
   * @param cause the hook's exception
   */
  public FinalizerCleanupException(String message, Throwable cause) {
    super(message, cause);
  }
}
