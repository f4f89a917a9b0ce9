package dev.converge.testing.conformance;

import java.util.Objects;

/**
 * One cell of the conformance matrix.
 *
 * @param strategy the strategy's configuration name
 * @param scenario the scenario
 * @param subject the kind it ran on, e.g. {@code Service (NodePort)}
 * @param verdict the outcome
 * @param detail why it failed, the declared reason for a limit, or what was observed
 */
public record ScenarioResult(
    String strategy, Scenario scenario, String subject, Verdict verdict, String detail) {

  /**
   * Checks the parts; a null {@code detail} becomes empty.
   *
   * @param strategy the strategy's configuration name
   * @param scenario the scenario
   * @param subject the kind it ran on, e.g. {@code Service (NodePort)}
   * @param verdict the outcome
   * @param detail why it failed, the declared reason for a limit, or what was observed
   * @throws NullPointerException when {@code strategy}, {@code scenario}, {@code subject} or {@code
   *     verdict} is null
   */
  public ScenarioResult {
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(scenario, "scenario");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(verdict, "verdict");
    detail = detail == null ? "" : detail;
  }
}
