package dev.converge.operator;

/** The life cycle of an {@link Operator}. */
public enum OperatorState {
  /** Built, not started. */
  NEW,
  /** Caches running; waiting to become leader. */
  STANDBY,
  /** Reconciling (the leader, or running without leader election). */
  RUNNING,
  /**
   * Was the leader and lost the lease: reconciling stopped. The process should exit so that a fresh
   * instance joins the election; liveness reports false.
   */
  LEADERSHIP_LOST,
  /** Shutting down or shut down. */
  STOPPED
}
