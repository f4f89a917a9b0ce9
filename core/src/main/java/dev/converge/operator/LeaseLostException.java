package dev.converge.operator;

import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * A write that was not sent because this instance's hold on the leader Lease is not current: its
 * last successful renewal is older than the fence allows, or it lost or released the Lease. Another
 * instance may be leading by now, and a write of this one could undo what the new leader wrote.
 *
 * <p>The runtime throws it from every write it sends for a leader-elected operator (strategy
 * writes, status, finalizers, deletes, Events, and the writes a reconciler sends through {@code
 * Context.client()}). A reconcile that fails with it is not retried by this instance; the next
 * leader reconciles every object again. Nothing was sent, so nothing needs undoing.
 */
public final class LeaseLostException extends KubernetesClientException {

  private static final long serialVersionUID = 1L;

  /**
   * An exception for a write that was not sent.
   *
   * @param message names the write's object and why the hold on the Lease is not current
   */
  public LeaseLostException(String message) {
    super(message);
  }

  /**
   * Whether a failure comes from the fence, so that a caller can tell it from a failure of the
   * write itself (it needs no retry and no report as an error).
   *
   * @param failure what was thrown; may be null
   * @return true when {@code failure} or one of its causes is a {@link LeaseLostException}
   */
  public static boolean isCause(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof LeaseLostException) {
        return true;
      }
    }
    return false;
  }
}
