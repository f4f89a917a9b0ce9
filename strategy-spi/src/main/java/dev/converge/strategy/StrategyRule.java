package dev.converge.strategy;

import dev.converge.schema.ApiKind;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Chooses a strategy for some objects of one kind, for an operator that writes two objects of a
 * kind differently (say, the Service it fully owns by server-side apply and one that other tools
 * also edit by create-or-update). Rules are tried in order before the per-kind choice of a {@link
 * StrategySelection}; the first that matches the desired object wins.
 *
 * @param kind the kind the rule applies to
 * @param description how configuration writes the rule, e.g. {@code v1/Service[name=*-metrics]}
 * @param matches which desired objects of that kind the rule applies to
 * @param strategy the strategy for them
 */
public record StrategyRule(
    ApiKind kind, String description, Predicate<HasMetadata> matches, String strategy) {

  /**
   * Checks the rule.
   *
   * @param kind the kind the rule applies to
   * @param description how configuration writes the rule
   * @param matches which desired objects of that kind the rule applies to
   * @param strategy the strategy for them
   * @throws NullPointerException if {@code kind}, {@code description} or {@code matches} is null
   * @throws StrategyConfigurationException if {@code strategy} is null or blank, naming the rule
   */
  public StrategyRule {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(matches, "matches");
    if (strategy == null || strategy.isBlank()) {
      throw new StrategyConfigurationException(
          "Strategy rule " + description + " names no strategy; expected e.g. ssa or update");
    }
  }

  /**
   * Objects of {@code kind} whose name matches {@code nameGlob}, where {@code *} stands for any run
   * of characters: {@code v1/Service[name=*-metrics]=update}.
   *
   * @param kind the kind the rule applies to
   * @param nameGlob the pattern the whole name must match; {@code *} alone matches every name
   * @param strategy the strategy for the objects it matches
   * @return the rule, described as {@code kind[name=nameGlob]}
   * @throws StrategyConfigurationException if {@code nameGlob} or {@code strategy} is null or blank
   */
  public static StrategyRule byName(ApiKind kind, String nameGlob, String strategy) {
    Pattern pattern = glob(nameGlob);
    return new StrategyRule(
        kind,
        kind + "[name=" + nameGlob + "]",
        object ->
            object.getMetadata() != null
                && object.getMetadata().getName() != null
                && pattern.matcher(object.getMetadata().getName()).matches(),
        strategy);
  }

  /**
   * Objects of {@code kind} whose desired labels hold {@code key=value}: {@code
   * v1/Service[label:app.kubernetes.io/component=cache]=update}. The labels looked at are the
   * desired object's, so the rule is decided by the operator's code alone.
   *
   * @param kind the kind the rule applies to
   * @param key the label's key
   * @param value the value the label must have, exactly
   * @param strategy the strategy for the objects it matches
   * @return the rule, described as {@code kind[label:key=value]}
   * @throws StrategyConfigurationException if {@code strategy} is null or blank
   */
  public static StrategyRule byLabel(ApiKind kind, String key, String value, String strategy) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    return new StrategyRule(
        kind,
        kind + "[label:" + key + "=" + value + "]",
        object -> {
          Map<String, String> labels =
              object.getMetadata() == null ? null : object.getMetadata().getLabels();
          return labels != null && value.equals(labels.get(key));
        },
        strategy);
  }

  /**
   * True when this rule chooses the strategy for {@code desired}.
   *
   * @param desired a desired object
   * @return whether it is of the rule's kind and the rule matches it
   */
  public boolean appliesTo(HasMetadata desired) {
    return kind.equals(ApiKind.of(desired)) && matches.test(desired);
  }

  /** The configuration form, e.g. {@code v1/Service[name=*-metrics]=update}. */
  @Override
  public String toString() {
    return description + "=" + strategy;
  }

  private static Pattern glob(String glob) {
    if (glob == null || glob.isBlank()) {
      throw new StrategyConfigurationException(
          "Strategy rule: a name pattern must not be blank; use * to match every name");
    }
    java.util.List<String> parts = new java.util.ArrayList<>();
    for (String part : glob.split("\\*", -1)) {
      parts.add(Pattern.quote(part));
    }
    return Pattern.compile(String.join(".*", parts));
  }
}
