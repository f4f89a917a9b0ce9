package dev.converge.testing.conformance;

import java.util.Objects;

/**
 * One cell of the case matrix.
 *
 * @param strategy the strategy's configuration name
 * @param check the case
 * @param subject the object it ran on, e.g. {@code Deployment (defaulted parameters)}
 * @param verdict the outcome
 * @param detail what failed (each expectation in brackets), the declared reason for a limit, or
 *     what was observed
 */
public record CaseResult(
    String strategy, ConformanceCase check, String subject, Verdict verdict, String detail) {

  /**
   * Checks the parts; a null {@code detail} becomes empty.
   *
   * @param strategy the strategy's configuration name
   * @param check the case
   * @param subject the object it ran on, e.g. {@code Deployment (defaulted parameters)}
   * @param verdict the outcome
   * @param detail what failed (each expectation in brackets), the declared reason for a limit, or
   *     what was observed
   * @throws NullPointerException when {@code strategy}, {@code check}, {@code subject} or {@code
   *     verdict} is null
   */
  public CaseResult {
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(check, "check");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(verdict, "verdict");
    detail = detail == null ? "" : detail;
  }
}
