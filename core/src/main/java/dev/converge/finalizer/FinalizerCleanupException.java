package dev.converge.finalizer;

/**
 * A {@link FinalizerHook} failed; the finalizer stays on the object and the reconcile is retried.
 * The message names the resource and the finalizer; the cause is the hook's exception.
 */
public final class FinalizerCleanupException extends RuntimeException {

  public FinalizerCleanupException(String message, Throwable cause) {
    super(message, cause);
  }
}
