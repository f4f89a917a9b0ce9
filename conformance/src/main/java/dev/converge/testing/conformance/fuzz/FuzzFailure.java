package dev.converge.testing.conformance.fuzz;

/**
 * One failed fuzz sequence, shrunk.
 *
 * @param strategy the strategy's name
 * @param kind the corpus kind
 * @param seed the sequence's seed (replay with the same base seed and sequence count)
 * @param step the apply that failed: 0 is the create, n the n-th change
 * @param category what went wrong
 * @param detail what the judge observed
 * @param minimalCase the smallest plan found that still fails the same way
 */
public record FuzzFailure(
    String strategy,
    String kind,
    long seed,
    int step,
    FuzzCategory category,
    String detail,
    String minimalCase) {

  /**
   * The text printed for this failure: enough to replay it and to read the minimal case.
   *
   * @return the description, over several lines
   */
  public String describe() {
    return strategy
        + ": "
        + category.label()
        + " on "
        + kind
        + ", seed "
        + seed
        + ", step "
        + step
        + ": "
        + detail
        + "\n  minimal case:\n"
        + minimalCase;
  }
}
