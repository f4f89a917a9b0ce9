package dev.converge.testing.conformance;

/** The outcome of one scenario on one kind. */
public enum Verdict {
  /** The behaviour was observed on the real API server. */
  PASS,
  /** The behaviour was not observed and the strategy did not declare it as a limit. */
  FAIL,
  /** Not observed, and the strategy declares this as a known limit (with a reason). */
  NOT_SUPPORTED,
  /** Not run for this kind or configuration (for example allocations on a ConfigMap). */
  NOT_RUN
}
