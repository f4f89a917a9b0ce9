package dev.converge.testing.conformance;

import java.util.Objects;

/**
 * A known limit of a strategy's write method, declared for exactly one expectation of one check. A
 * check whose failed expectations are all declared limits is reported {@link Verdict#NOT_SUPPORTED}
 * with the reason; any other failed expectation beside it still fails.
 *
 * @param check a scenario's short name ({@link Scenario#shortName()}) or a case's name ({@link
 *     ConformanceCase#caseName()})
 * @param expectation the name of the expectation, as printed in brackets by a failure
 * @param reason why the write method itself cannot meet it
 */
public record DeclaredLimit(String check, String expectation, String reason) {

  /**
   * Checks the parts.
   *
   * @param check a scenario's short name ({@link Scenario#shortName()}) or a case's name ({@link
   *     ConformanceCase#caseName()})
   * @param expectation the name of the expectation, as printed in brackets by a failure
   * @param reason why the write method itself cannot meet it
   * @throws NullPointerException when a part is null
   */
  public DeclaredLimit {
    Objects.requireNonNull(check, "check");
    Objects.requireNonNull(expectation, "expectation");
    Objects.requireNonNull(reason, "reason");
  }
}
