package dev.converge.testing.conformance.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The expectations of one scenario that failed so far. Checks that do not depend on each other are
 * all made before the scenario ends, so that a declared limit, which covers one named expectation,
 * never hides another that failed beside it.
 */
public final class Findings {

  private final Map<String, String> failed = new LinkedHashMap<>();

  /** Records {@code observed} under {@code expectation} unless {@code holds}. */
  public void check(String expectation, boolean holds, String observed) {
    if (!holds) {
      failed.merge(expectation, observed, (a, b) -> a + "; " + b);
    }
  }

  /** Records each line of {@code mismatches} under {@code expectation}. */
  public void none(String expectation, List<String> mismatches) {
    check(expectation, mismatches.isEmpty(), String.join("; ", mismatches));
  }

  /** Throws an {@link ExpectationFailure} for what failed so far. */
  public void throwIfAny() {
    if (!failed.isEmpty()) {
      throw new ExpectationFailure(failed);
    }
  }

  /** Checks {@code holds} and, when it does not, throws at once with what was recorded so far. */
  public void require(String expectation, boolean holds, String observed) {
    check(expectation, holds, observed);
    if (!holds) {
      throwIfAny();
    }
  }
}
