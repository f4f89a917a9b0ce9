package dev.converge.metrics;

/** How one reconcile ended, as counted in metrics (tag {@code result}). */
public enum ReconcileOutcome {
  /** {@code Result.done()}. */
  SUCCESS("success"),
  /** The reconciler threw; retried with backoff. */
  ERROR("error"),
  /** {@code Result.requeue()}. */
  REQUEUE("requeue"),
  /** {@code Result.requeueAfter(d)}. */
  REQUEUE_AFTER("requeue-after"),
  /** {@code Result.permanentFailure(...)}. */
  PERMANENT("permanent");

  private final String tag;

  ReconcileOutcome(String tag) {
    this.tag = tag;
  }

  /**
   * The tag value used in metrics, stable across releases so that dashboards and alerts keep
   * working.
   *
   * @return the value of the tag {@code result}, e.g. {@code requeue-after}
   */
  public String tag() {
    return tag;
  }
}
