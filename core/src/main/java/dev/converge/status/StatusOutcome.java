package dev.converge.status;

/**
 * What a {@link StatusWriter} did: nothing (the status was already as wanted), or a write whose
 * result is the object as the API server stored it.
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
}
