package dev.converge.webhooks;

/** What the API server does when it cannot get an answer from the webhook. */
public enum FailurePolicy {
  /** Refuse the request (the safe default for validation). */
  Fail,
  /** Let the request through unchecked. */
  Ignore
}
