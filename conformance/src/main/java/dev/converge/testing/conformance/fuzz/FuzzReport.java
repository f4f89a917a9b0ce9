package dev.converge.testing.conformance.fuzz;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of one fuzz run of one strategy.
 *
 * @param strategy the strategy's name
 * @param sequences sequences run to the end or to their first failure
 * @param applies calls of the strategy's apply
 * @param skippedInvalid steps skipped because the API server refused every drawn desired object
 * @param failures per category, sequences that failed that way
 * @param examples the failures found, shrunk (at most a few per kind and category)
 */
public record FuzzReport(
    String strategy,
    int sequences,
    int applies,
    int skippedInvalid,
    Map<FuzzCategory, Integer> failures,
    List<FuzzFailure> examples) {

  /**
   * Fills in a count of 0 for every category {@code failures} lacks, and copies both collections.
   *
   * @param strategy the strategy's name
   * @param sequences sequences run to the end or to their first failure
   * @param applies calls of the strategy's apply
   * @param skippedInvalid steps skipped because the API server refused every drawn desired object
   * @param failures per category, sequences that failed that way
   * @param examples the failures found, shrunk (at most a few per kind and category)
   */
  public FuzzReport {
    EnumMap<FuzzCategory, Integer> all = new EnumMap<>(FuzzCategory.class);
    for (FuzzCategory c : FuzzCategory.values()) {
      all.put(c, failures.getOrDefault(c, 0));
    }
    failures = Map.copyOf(all);
    examples = List.copyOf(examples);
  }

  /**
   * Sequences that failed in {@code category}.
   *
   * @param category the category
   * @return the number of sequences, 0 or more
   */
  public int count(FuzzCategory category) {
    return failures.get(category);
  }

  /**
   * True when no sequence failed.
   *
   * @return whether every category counts 0
   */
  public boolean clean() {
    return failures.values().stream().allMatch(n -> n == 0);
  }

  /**
   * One line of figures, as printed after a run.
   *
   * @return the strategy, the sequences and applies run, the count of each category and the steps
   *     skipped
   */
  public String summary() {
    StringBuilder line =
        new StringBuilder(
            String.format("%-14s sequences %5d  applies %6d", strategy, sequences, applies));
    for (FuzzCategory c : FuzzCategory.values()) {
      line.append("  ").append(c.label()).append(' ').append(count(c));
    }
    return line.append("  (steps skipped as invalid: ")
        .append(skippedInvalid)
        .append(')')
        .toString();
  }
}
