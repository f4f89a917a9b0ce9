package dev.converge.testing.conformance.fuzz;

/**
 * How much the differential fuzzer runs: {@code sequences} per strategy (spread round robin over
 * the corpus kinds), each of a create, changes by another actor and {@code changes} later desired
 * objects, drawn from {@code seed}. Read from system properties so a long run needs no code:
 * {@value #SEQUENCES}, {@value #SEED}, {@value #CHANGES}.
 *
 * @param sequences sequences per strategy
 * @param seed the base seed; sequence i uses a seed derived from it and i
 * @param changes desired objects after the first, per sequence
 */
public record FuzzSettings(int sequences, long seed, int changes) {

  /** System property: sequences per strategy. */
  public static final String SEQUENCES = "converge.fuzz.sequences";

  /** System property: the base seed. */
  public static final String SEED = "converge.fuzz.seed";

  /** System property: changes per sequence. */
  public static final String CHANGES = "converge.fuzz.changes";

  /**
   * Checks the figures.
   *
   * @param sequences sequences per strategy
   * @param seed the base seed; sequence i uses a seed derived from it and i
   * @param changes desired objects after the first, per sequence
   * @throws IllegalArgumentException when {@code sequences} or {@code changes} is negative
   */
  public FuzzSettings {
    if (sequences < 0 || changes < 0) {
      throw new IllegalArgumentException(
          "fuzz settings: sequences and changes must be >= 0, got "
              + sequences
              + " and "
              + changes);
    }
  }

  /**
   * The settings from system properties, with {@code defaultSequences} when none is set; the seed
   * defaults to 1 and the changes to 2.
   *
   * @param defaultSequences the sequences per strategy when {@value #SEQUENCES} is not set
   * @return the settings
   */
  public static FuzzSettings fromSystemProperties(int defaultSequences) {
    return new FuzzSettings(
        Integer.getInteger(SEQUENCES, defaultSequences),
        Long.getLong(SEED, 1L),
        Integer.getInteger(CHANGES, 2));
  }
}
