package dev.converge.strategy;

import dev.converge.schema.ApiKind;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Which strategy writes which object: a default, per-kind overrides, and rules for some objects of
 * a kind, e.g. {@code apps/v1/Deployment=ssa, v1/Service=update, v1/Service[name=*-metrics]=ssa}.
 * For a desired object the first matching rule wins, then its kind's override, then the default.
 * Names are checked against the installed strategies by {@link StrategySelector}.
 *
 * @param defaultStrategy the strategy for kinds without an override
 * @param perKind overrides by kind
 * @param rules overrides for some objects of a kind, tried in order before {@code perKind}
 */
public record StrategySelection(
    String defaultStrategy, Map<ApiKind, String> perKind, List<StrategyRule> rules) {

  /** The framework default: server-side apply. */
  public static final String FRAMEWORK_DEFAULT = "ssa";

  /** Property key for the default strategy in {@link #fromProperties}. */
  public static final String DEFAULT_KEY = "converge.strategy.default";

  /**
   * Prefix of per-kind keys in {@link #fromProperties}, e.g. {@code
   * converge.strategy.kind.apps/v1/Deployment}.
   */
  public static final String KIND_PREFIX = "converge.strategy.kind.";

  /**
   * Keeps unmodifiable copies of the overrides and rules. Strategy names are not checked here: a
   * selection may be written before the strategies are installed.
   *
   * @param defaultStrategy the strategy for kinds without an override
   * @param perKind overrides by kind
   * @param rules overrides for some objects of a kind, tried in order
   * @throws NullPointerException if an argument, a kind, a name or a rule is null
   */
  public StrategySelection {
    Objects.requireNonNull(defaultStrategy, "defaultStrategy");
    perKind = Map.copyOf(perKind);
    rules = List.copyOf(rules);
  }

  /**
   * A default and per-kind overrides, no rules.
   *
   * @param defaultStrategy the strategy for kinds without an override
   * @param perKind overrides by kind
   */
  public StrategySelection(String defaultStrategy, Map<ApiKind, String> perKind) {
    this(defaultStrategy, perKind, List.of());
  }

  /**
   * The framework default for every kind.
   *
   * @return {@value #FRAMEWORK_DEFAULT} for every kind, without overrides or rules
   */
  public static StrategySelection defaults() {
    return new StrategySelection(FRAMEWORK_DEFAULT, Map.of());
  }

  /**
   * One strategy for every kind.
   *
   * @param strategy the strategy's name
   * @return a selection of {@code strategy} for every kind, without overrides or rules
   */
  public static StrategySelection all(String strategy) {
    return new StrategySelection(strategy, Map.of());
  }

  /**
   * Parses {@code kind=strategy} pairs separated by commas or newlines; the pseudo-kind {@code
   * default} sets the default, e.g. {@code "default=update, apps/v1/Deployment=ssa"}. A kind
   * followed by a bracket is a rule for some of its objects: {@code v1/Service[name=*-metrics]=ssa}
   * (by name, {@code *} for any characters) or {@code v1/Service[label:tier=cache]=update} (by a
   * label of the desired object).
   *
   * @param text the entries; blank entries are skipped, and without a {@code default} entry the
   *     default is {@value #FRAMEWORK_DEFAULT}
   * @return the selection, rules in the order of the text
   * @throws StrategyConfigurationException if an entry has no {@code =}, names no valid kind, has
   *     an unknown condition or names no strategy for a rule, quoting the entry
   */
  public static StrategySelection parse(String text) {
    String defaultStrategy = FRAMEWORK_DEFAULT;
    Map<ApiKind, String> perKind = new LinkedHashMap<>();
    List<StrategyRule> rules = new ArrayList<>();
    for (String entry : text.split("[,\\n]", -1)) {
      if (entry.isBlank()) {
        continue;
      }
      int eq = entry.lastIndexOf('=');
      if (eq < 0) {
        throw new StrategyConfigurationException(
            "Strategy selection entry '"
                + entry.trim()
                + "' has no '='; expected kind=strategy,"
                + " e.g. apps/v1/Deployment=ssa");
      }
      String key = entry.substring(0, eq).trim();
      String value = entry.substring(eq + 1).trim();
      if (key.equals("default")) {
        defaultStrategy = value;
      } else if (key.endsWith("]") && key.contains("[")) {
        rules.add(parseRule(key, value));
      } else {
        perKind.put(parseKind(key), value);
      }
    }
    return new StrategySelection(defaultStrategy, perKind, rules);
  }

  /**
   * Reads {@value #DEFAULT_KEY} and keys starting with {@value #KIND_PREFIX} (followed by the
   * kind). Other keys are ignored, so the operator's whole configuration may be passed; rules have
   * no property form.
   *
   * @param properties the configuration
   * @return the selection; the default is {@value #FRAMEWORK_DEFAULT} when {@value #DEFAULT_KEY} is
   *     absent
   * @throws StrategyConfigurationException if a per-kind key names no valid kind
   */
  public static StrategySelection fromProperties(Properties properties) {
    Map<ApiKind, String> perKind = new LinkedHashMap<>();
    for (String key : properties.stringPropertyNames()) {
      if (key.startsWith(KIND_PREFIX)) {
        perKind.put(
            parseKind(key.substring(KIND_PREFIX.length())), properties.getProperty(key).trim());
      }
    }
    return new StrategySelection(
        properties.getProperty(DEFAULT_KEY, FRAMEWORK_DEFAULT).trim(), perKind);
  }

  /**
   * A copy with one more override.
   *
   * @param kind the kind
   * @param strategy the strategy for it, replacing any override it had
   * @return a new selection; this one is unchanged
   */
  public StrategySelection with(ApiKind kind, String strategy) {
    Map<ApiKind, String> copy = new LinkedHashMap<>(perKind);
    copy.put(kind, strategy);
    return new StrategySelection(defaultStrategy, copy, rules);
  }

  /**
   * A copy with one more rule, tried after the existing ones.
   *
   * @param rule the rule to add
   * @return a new selection; this one is unchanged
   */
  public StrategySelection with(StrategyRule rule) {
    List<StrategyRule> copy = new ArrayList<>(rules);
    copy.add(Objects.requireNonNull(rule, "rule"));
    return new StrategySelection(defaultStrategy, perKind, copy);
  }

  /**
   * The strategy name configured for {@code kind}, rules aside.
   *
   * @param kind a kind
   * @return its override, else the default
   */
  public String strategyFor(ApiKind kind) {
    return perKind.getOrDefault(kind, defaultStrategy);
  }

  /**
   * The strategy name for {@code desired}: the first matching rule, else its kind's.
   *
   * @param desired a desired object, whose apiVersion and kind are set
   * @return the name of the strategy that writes it
   */
  public String strategyFor(HasMetadata desired) {
    for (StrategyRule rule : rules) {
      if (rule.appliesTo(desired)) {
        return rule.strategy();
      }
    }
    return strategyFor(ApiKind.of(desired));
  }

  private static ApiKind parseKind(String text) {
    try {
      return ApiKind.parse(text);
    } catch (IllegalArgumentException e) {
      throw new StrategyConfigurationException("Strategy selection: " + e.getMessage());
    }
  }

  private static StrategyRule parseRule(String key, String strategy) {
    int open = key.indexOf('[');
    ApiKind kind = parseKind(key.substring(0, open));
    String condition = key.substring(open + 1, key.length() - 1).trim();
    if (condition.startsWith("name=")) {
      return StrategyRule.byName(kind, condition.substring("name=".length()).trim(), strategy);
    }
    int eq = condition.indexOf('=');
    if (condition.startsWith("label:") && eq > "label:".length()) {
      return StrategyRule.byLabel(
          kind,
          condition.substring("label:".length(), eq).trim(),
          condition.substring(eq + 1).trim(),
          strategy);
    }
    throw new StrategyConfigurationException(
        "Strategy selection entry '"
            + key
            + "="
            + strategy
            + "' has an unknown condition ["
            + condition
            + "]; expected [name=<pattern>] or"
            + " [label:<key>=<value>], e.g. v1/Service[name=*-metrics]=update");
  }
}
