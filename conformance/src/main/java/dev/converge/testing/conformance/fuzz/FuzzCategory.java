package dev.converge.testing.conformance.fuzz;

/** What went wrong in a fuzz sequence, judged against the API server. */
public enum FuzzCategory {
  /**
   * After an apply, a field desired names differs from what a fresh create of desired holds, or a
   * dropped field stayed.
   */
  LOST_CHANGE("lost changes"),
  /** A second apply of the same desired sent a write or did not report UNCHANGED. */
  ENDLESS_WRITES("endless writes"),
  /** The strategy failed on a desired object the API server accepts as a fresh create. */
  REFUSED_VALID_CHANGE("refused valid changes"),
  /**
   * A label, annotation, finalizer or field another actor set, and desired does not name, was lost.
   */
  FOREIGN_DATA_LOST("foreign data lost");

  private final String label;

  FuzzCategory(String label) {
    this.label = label;
  }

  /**
   * The column name in the printed summary.
   *
   * @return the label, such as {@code lost changes}
   */
  public String label() {
    return label;
  }
}
