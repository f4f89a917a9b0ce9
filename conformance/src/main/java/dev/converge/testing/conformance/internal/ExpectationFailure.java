package dev.converge.testing.conformance.internal;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One or more expectations of a scenario that live did not meet, each under the name a declared
 * limit can point at; the message lists what was observed.
 */
public final class ExpectationFailure extends AssertionError {

  private static final long serialVersionUID = 1L;

  private final transient Map<String, String> failed;

  /**
   * @param failed expectation name to what was observed, in the order checked
   */
  public ExpectationFailure(Map<String, String> failed) {
    super(
        failed.entrySet().stream()
            .map(e -> "[" + e.getKey() + "] " + e.getValue())
            .collect(Collectors.joining("; ")));
    this.failed = Map.copyOf(failed);
  }

  /** A failure of one expectation. */
  public static ExpectationFailure of(String expectation, String observed) {
    return new ExpectationFailure(Map.of(expectation, observed));
  }

  /** The names of the expectations that failed. */
  public List<String> expectations() {
    return List.copyOf(failed.keySet());
  }
}
