package dev.converge.workload;

/** An image reference that no registry would accept; retrying cannot fix it, only a new spec. */
public final class InvalidImageReferenceException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String reference;
  private final String problem;

  public InvalidImageReferenceException(String reference, String problem) {
    super("image reference '" + reference + "' is not valid: " + problem);
    this.reference = reference;
    this.problem = problem;
  }

  /** The text that failed to parse. */
  public String reference() {
    return reference;
  }

  /** What is wrong with it, as a phrase. */
  public String problem() {
    return problem;
  }
}
