package dev.converge.testing.conformance;

import java.util.List;

/**
 * Everything one or more conformance runs found.
 *
 * @param scenarios results of the {@link Scenario}s
 * @param cases results of the {@link ConformanceCase}s
 */
public record ConformanceResults(List<ScenarioResult> scenarios, List<CaseResult> cases) {

  /**
   * Copies both lists, so the results cannot change afterwards; null becomes empty.
   *
   * @param scenarios results of the {@link Scenario}s
   * @param cases results of the {@link ConformanceCase}s
   */
  public ConformanceResults {
    scenarios = scenarios == null ? List.of() : List.copyOf(scenarios);
    cases = cases == null ? List.of() : List.copyOf(cases);
  }
}
