package dev.converge.status;

/**
 * What a status write did: nothing (the status was already as wanted), a write whose result is the
 * object as the API server stored it, or nothing because the object is gone or has moved on to a
 * newer generation (only from {@link dev.converge.reconcile.Context#updateStatus}).
 *
 * @param <T> the type of the object whose status was written
 */
public sealed interface StatusOutcome<T> {

  /**
   * The object to continue with, so a reconcile that goes on after a status write works on the
   * latest copy it knows.
   *
   * @return the server's copy after a write, else the object as read
   */
  T object();

  /**
   * Whether a request was sent to the API server.
   *
   * @return true only for {@link Written}
   */
  boolean written();

  /**
   * The status did not change; no request was sent.
   *
   * @param object the object as read
   * @param <T> the type of the object
   */
  record Unchanged<T>(T object) implements StatusOutcome<T> {
    @Override
    public boolean written() {
      return false;
    }
  }

  /**
   * The status was patched through the status subresource.
   *
   * @param object the object as the API server stored it after the patch
   * @param <T> the type of the object
   */
  record Written<T>(T object) implements StatusOutcome<T> {
    @Override
    public boolean written() {
      return true;
    }
  }

  /**
   * The object was deleted before its status could be written; nothing to do.
   *
   * @param object the object as last read
   * @param <T> the type of the object
   */
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
   * @param <T> the type of the object
   */
  record Superseded<T>(T object) implements StatusOutcome<T> {
    @Override
    public boolean written() {
      return false;
    }
  }
}
