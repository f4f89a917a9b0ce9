package dev.converge.status;

/**
 * What a status write did: nothing (the status was already as wanted), a write whose result is the
 * object as the API server stored it, or nothing because the object is gone or has moved on to a
 * newer generation (only from {@link dev.converge.reconcile.Context#updateStatus}).
 */
public sealed interface StatusOutcome<T> {

  /** The object to continue with: the server's copy after a write, else the object as read. */
  T object();

  /** True when a request was sent to the API server. */
  boolean written();

  /** The status did not change; no request was sent. */
  record Unchanged<T>(T object) implements StatusOutcome<T> {
    @Override
    public boolean written() {
      return false;
    }
  }

  /** The status was patched through the status subresource. */
  record Written<T>(T object) implements StatusOutcome<T> {
    @Override
    public boolean written() {
      return true;
    }
  }

  /** The object was deleted before its status could be written; nothing to do. */
  record Gone<T>(T object) implements StatusOutcome<T> {
    @Override
    public boolean written() {
      return false;
    }
  }

  /**
   * A fresh read after a conflict showed a newer generation (a new spec); the status computed for
   * the old one was not written, and the new generation's own reconcile writes it.
   *
   * @param object the fresh read
   */
  record Superseded<T>(T object) implements StatusOutcome<T> {
    @Override
    public boolean written() {
      return false;
    }
  }
}
