package dev.converge.strategy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Which strategy writes which kind: a default plus per-kind overrides, e.g. {@code
 * apps/v1/Deployment=ssa, v1/Service=update}. Names are checked against the installed strategies by
 * {@link StrategySelector}.
 *
 * @param defaultStrategy the strategy for kinds without an override
 * @param perKind overrides by kind
 */
public record StrategySelection(String defaultStrategy, Map<ApiKind, String> perKind) {

  /** The framework default: server-side apply. */
  public static final String FRAMEWORK_DEFAULT = "ssa";

  /** Property key for the default strategy in {@link #fromProperties}. */
  public static final String DEFAULT_KEY = "converge.strategy.default";

  /** Prefix of per-kind keys in {@link #fromProperties}, e.g. {@code converge.strategy.kind.apps/v1/Deployment}. */
  public static final String KIND_PREFIX = "converge.strategy.kind.";

  public StrategySelection {
    Objects.requireNonNull(defaultStrategy, "defaultStrategy");
    perKind = Map.copyOf(perKind);
  }

  /** The framework default for every kind. */
  public static StrategySelection defaults() {
    return new StrategySelection(FRAMEWORK_DEFAULT, Map.of());
  }

  /** One strategy for every kind. */
  public static StrategySelection all(String strategy) {
    return new StrategySelection(strategy, Map.of());
  }

  /**
   * Parses {@code kind=strategy} pairs separated by commas or newlines; the pseudo-kind {@code
   * default} sets the default, e.g. {@code "default=update, apps/v1/Deployment=ssa"}.
   */
  public static StrategySelection parse(String text) {
    String defaultStrategy = FRAMEWORK_DEFAULT;
    Map<ApiKind, String> perKind = new LinkedHashMap<>();
    for (String entry : text.split("[,\\n]")) {
      if (entry.isBlank()) {
        continue;
      }
      int eq = entry.indexOf('=');
      if (eq < 0) {
        throw new StrategyConfigurationException(
            "Strategy selection entry '" + entry.trim() + "' has no '='; expected kind=strategy,"
                + " e.g. apps/v1/Deployment=ssa");
      }
      String key = entry.substring(0, eq).trim();
      String value = entry.substring(eq + 1).trim();
      if (key.equals("default")) {
        defaultStrategy = value;
      } else {
        perKind.put(parseKind(key), value);
      }
    }
    return new StrategySelection(defaultStrategy, perKind);
  }

  /**
   * Reads {@value #DEFAULT_KEY} and keys starting with {@value #KIND_PREFIX} (followed by the kind).
   */
  public static StrategySelection fromProperties(Properties properties) {
    Map<ApiKind, String> perKind = new LinkedHashMap<>();
    for (String key : properties.stringPropertyNames()) {
      if (key.startsWith(KIND_PREFIX)) {
        perKind.put(parseKind(key.substring(KIND_PREFIX.length())), properties.getProperty(key).trim());
      }
    }
    return new StrategySelection(properties.getProperty(DEFAULT_KEY, FRAMEWORK_DEFAULT).trim(), perKind);
  }

  /** A copy with one more override. */
  public StrategySelection with(ApiKind kind, String strategy) {
    Map<ApiKind, String> copy = new LinkedHashMap<>(perKind);
    copy.put(kind, strategy);
    return new StrategySelection(defaultStrategy, copy);
  }

  /** The strategy name configured for {@code kind}. */
  public String strategyFor(ApiKind kind) {
    return perKind.getOrDefault(kind, defaultStrategy);
  }

  private static ApiKind parseKind(String text) {
    try {
      return ApiKind.parse(text);
    } catch (IllegalArgumentException e) {
      throw new StrategyConfigurationException("Strategy selection: " + e.getMessage());
    }
  }
}
