package dev.converge.testing.conformance;

import dev.converge.strategy.ResourceStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A strategy under test and the limits of its write method it declares. A limit covers one named
 * expectation of one check: when every expectation a check failed is declared, the check is
 * reported {@link Verdict#NOT_SUPPORTED} with the reasons; when any other expectation failed beside
 * it, the check fails.
 *
 * @param strategy the strategy
 * @param limits declared limits
 */
public record ConformanceTarget(ResourceStrategy strategy, List<DeclaredLimit> limits) {

  /**
   * Copies the limits.
   *
   * @param strategy the strategy
   * @param limits declared limits
   * @throws NullPointerException when {@code strategy} or {@code limits} is null
   */
  public ConformanceTarget {
    Objects.requireNonNull(strategy, "strategy");
    limits = List.copyOf(limits);
  }

  /**
   * A target declaring no limits: every failed expectation fails its check.
   *
   * @param strategy the strategy under test
   * @return the target
   */
  public static ConformanceTarget of(ResourceStrategy strategy) {
    return new ConformanceTarget(strategy, List.of());
  }

  /**
   * A copy that declares {@code expectation} of {@code scenario} a limit of the method, for {@code
   * reason}.
   *
   * @param scenario the scenario
   * @param expectation the name of the expectation, as printed in brackets by a failure
   * @param reason why the write method itself cannot meet it, for the report
   * @return a copy with the limit added
   */
  public ConformanceTarget withLimit(Scenario scenario, String expectation, String reason) {
    return with(new DeclaredLimit(scenario.shortName(), expectation, reason));
  }

  /**
   * A copy that declares {@code expectation} of {@code check} a limit of the method, for {@code
   * reason}.
   *
   * @param check the case
   * @param expectation the name of the expectation, as printed in brackets by a failure
   * @param reason why the write method itself cannot meet it, for the report
   * @return a copy with the limit added
   */
  public ConformanceTarget withLimit(ConformanceCase check, String expectation, String reason) {
    return with(new DeclaredLimit(check.caseName(), expectation, reason));
  }

  private ConformanceTarget with(DeclaredLimit limit) {
    List<DeclaredLimit> copy = new ArrayList<>(limits);
    copy.add(limit);
    return new ConformanceTarget(strategy, copy);
  }

  /**
   * The limit declared for {@code expectation} of {@code check}, if any.
   *
   * @param check a scenario's short name or a case's name
   * @param expectation the name of the expectation
   * @return the declared limit, or empty when the failure counts
   */
  public Optional<DeclaredLimit> limit(String check, String expectation) {
    return limits.stream()
        .filter(l -> l.check().equals(check) && l.expectation().equals(expectation))
        .findFirst();
  }

  /**
   * The strategy's configuration name.
   *
   * @return the name, as in reports
   */
  public String name() {
    return strategy.name();
  }
}
