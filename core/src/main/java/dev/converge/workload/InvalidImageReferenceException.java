package dev.converge.workload;

/** An image reference that no registry would accept; retrying cannot fix it, only a new spec. */
public final class InvalidImageReferenceException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /** The text that failed to parse. */
  private final String reference;

  /** What is wrong with it, as a phrase. */
  private final String problem;

  /**
   * Reports what is wrong with {@code reference}.
   *
   * @param reference the text that failed to parse
   * @param problem what is wrong with it, as a phrase that follows "is not valid: "
   */
  public InvalidImageReferenceException(String reference, String problem) {
    super("image reference '" + reference + "' is not valid: " + problem);
    this.reference = reference;
    this.problem = problem;
  }

  /**
   * The text that failed to parse.
   *
   * @return the reference as given
   */
  public String reference() {
    return reference;
  }

  /**
   * What is wrong with it, as a phrase, for a condition message of its own making.
   *
   * @return the problem, without the reference
   */
  public String problem() {
    return problem;
  }
}
