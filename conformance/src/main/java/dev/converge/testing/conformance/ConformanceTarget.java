package dev.converge.testing.conformance;

import dev.converge.strategy.ResourceStrategy;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * A strategy under test and the limits it declares. A scenario that fails and is declared here is
 * reported {@link Verdict#NOT_SUPPORTED} with the reason instead of {@link Verdict#FAIL}; one that
 * passes anyway is reported {@link Verdict#PASS}.
 *
 * @param strategy the strategy
 * @param limits declared limits, scenario to reason
 */
public record ConformanceTarget(ResourceStrategy strategy, Map<Scenario, String> limits) {

  public ConformanceTarget {
    Objects.requireNonNull(strategy, "strategy");
    limits = Map.copyOf(limits);
  }

  /** A target declaring no limits. */
  public static ConformanceTarget of(ResourceStrategy strategy) {
    return new ConformanceTarget(strategy, Map.of());
  }

  /** A copy that declares {@code scenario} unsupported for {@code reason}. */
  public ConformanceTarget withLimit(Scenario scenario, String reason) {
    Map<Scenario, String> copy = new EnumMap<>(Scenario.class);
    copy.putAll(limits);
    copy.put(scenario, reason);
    return new ConformanceTarget(strategy, copy);
  }

  /** The strategy's configuration name. */
  public String name() {
    return strategy.name();
  }
}
