package dev.converge.webhooks;

/** The operation an admission request is about, as the API server names it. */
public enum Operation {
  /** An object is created. */
  CREATE,
  /** A stored object is replaced or patched. */
  UPDATE,
  /** An object is deleted. */
  DELETE,
  /** A connection to a subresource such as {@code pods/exec} or {@code pods/portforward}. */
  CONNECT
}
