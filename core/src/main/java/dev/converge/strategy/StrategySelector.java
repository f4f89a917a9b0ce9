package dev.converge.strategy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Maps kinds to installed strategies. Construction validates the whole selection, so a typo or a
 * missing plugin jar fails at startup, not at the first reconcile of some rarely touched kind.
 */
public final class StrategySelector {

  private final Map<String, ResourceStrategy> installed;
  private final StrategySelection selection;

  /**
   * @throws StrategyConfigurationException naming every unknown strategy, the kinds that asked for
   *     it and the strategies found
   */
  public StrategySelector(Map<String, ResourceStrategy> installed, StrategySelection selection) {
    this.installed = Map.copyOf(installed);
    this.selection = Objects.requireNonNull(selection, "selection");
    validate();
  }

  /** The strategy that writes {@code kind}. */
  public ResourceStrategy forKind(ApiKind kind) {
    String name = selection.strategyFor(kind);
    ResourceStrategy strategy = installed.get(name);
    if (strategy == null) { // the constructor checks every configured name; this guards the invariant
      throw new StrategyConfigurationException(
          "strategy '" + name + "' for " + kind + " is not installed; installed: " + installed.keySet());
    }
    return strategy;
  }

  /** The strategy that writes the kind of {@code resource}. */
  public ResourceStrategy forResource(HasMetadata resource) {
    return forKind(ApiKind.of(resource));
  }

  /** Installed strategies by name. */
  public Map<String, ResourceStrategy> installed() {
    return installed;
  }

  /** The selection this selector was built from. */
  public StrategySelection selection() {
    return selection;
  }

  private void validate() {
    Map<String, TreeSet<String>> missing = new TreeMap<>();
    if (!installed.containsKey(selection.defaultStrategy())) {
      missing.computeIfAbsent(selection.defaultStrategy(), k -> new TreeSet<>()).add("default");
    }
    selection.perKind().forEach((kind, name) -> {
      if (!installed.containsKey(name)) {
        missing.computeIfAbsent(name, k -> new TreeSet<>()).add(kind.toString());
      }
    });
    if (missing.isEmpty()) {
      return;
    }
    StringBuilder message = new StringBuilder("Unknown resource strategy configured: ");
    missing.forEach((name, users) ->
        message.append("'").append(name).append("' (for ").append(String.join(", ", users)).append(") "));
    message.append("; strategies found: ").append(new TreeSet<>(installed.keySet()))
        .append(". Fix the name, or add the plugin jar that provides it to the classpath")
        .append(" (converge-strategies-update: update, converge-strategies-patch: merge-patch,")
        .append(" converge-strategies-ssa: ssa).");
    throw new StrategyConfigurationException(message.toString());
  }
}
