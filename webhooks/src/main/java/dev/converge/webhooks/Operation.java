package dev.converge.webhooks;

/** The operation an admission request is about, as the API server names it. */
public enum Operation {
  CREATE,
  UPDATE,
  DELETE,
  CONNECT
}
