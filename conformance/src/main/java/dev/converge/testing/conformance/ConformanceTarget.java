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

  public ConformanceTarget {
    Objects.requireNonNull(strategy, "strategy");
    limits = List.copyOf(limits);
  }

  /** A target declaring no limits. */
  public static ConformanceTarget of(ResourceStrategy strategy) {
    return new ConformanceTarget(strategy, List.of());
  }

  /**
   * A copy that declares {@code expectation} of {@code scenario} a limit of the method, for {@code
   * reason}.
   */
  public ConformanceTarget withLimit(Scenario scenario, String expectation, String reason) {
    return with(new DeclaredLimit(scenario.shortName(), expectation, reason));
  }

  /**
   * A copy that declares {@code expectation} of {@code check} a limit of the method, for {@code
   * reason}.
   */
  public ConformanceTarget withLimit(ConformanceCase check, String expectation, String reason) {
    return with(new DeclaredLimit(check.caseName(), expectation, reason));
  }

  private ConformanceTarget with(DeclaredLimit limit) {
    List<DeclaredLimit> copy = new ArrayList<>(limits);
    copy.add(limit);
    return new ConformanceTarget(strategy, copy);
  }

  /** The limit declared for {@code expectation} of {@code check}, if any. */
  public Optional<DeclaredLimit> limit(String check, String expectation) {
    return limits.stream()
        .filter(l -> l.check().equals(check) && l.expectation().equals(expectation))
        .findFirst();
  }

  /** The strategy's configuration name. */
  public String name() {
    return strategy.name();
  }
}
