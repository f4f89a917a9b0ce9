package dev.converge.strategy;

import dev.converge.schema.ApiKind;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Maps desired objects to installed strategies. Construction validates the whole selection, so a
 * typo or a missing plugin jar fails at startup, not at the first reconcile of some rarely touched
 * kind.
 *
 * <p>Without Guice: {@code StrategySelector.discover(StrategySelection.parse("v1/Service=update"))}
 * finds the strategies on the classpath ({@link #findInstalled}).
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

  /**
   * The strategies found on the classpath of {@code StrategySelector}'s class loader, selected by
   * {@code selection}.
   *
   * @throws StrategyConfigurationException when the selection names a strategy not found
   */
  public static StrategySelector discover(StrategySelection selection) {
    return discover(selection, StrategySelector.class.getClassLoader());
  }

  /** As {@link #discover(StrategySelection)}, with the strategies {@code classLoader} sees. */
  public static StrategySelector discover(StrategySelection selection, ClassLoader classLoader) {
    return new StrategySelector(StrategyDiscovery.find(classLoader), selection);
  }

  /**
   * {@code strategies} selected by {@code selection}.
   *
   * @throws StrategyConfigurationException when two different classes claim one name, or the
   *     selection names a strategy not among them
   */
  public static StrategySelector of(
      Collection<? extends ResourceStrategy> strategies, StrategySelection selection) {
    return new StrategySelector(StrategyDiscovery.byName(List.copyOf(strategies)), selection);
  }

  /**
   * The strategies {@code classLoader} sees, by name: a strategy jar lists its {@link
   * ResourceStrategy} implementations (public, with a public no-argument constructor) in {@code
   * META-INF/services/dev.converge.strategy.ResourceStrategy}; that entry and the class are the
   * whole plugin.
   *
   * @throws StrategyConfigurationException when two different classes claim one name, or a listed
   *     class cannot be loaded or constructed
   */
  public static Map<String, ResourceStrategy> findInstalled(ClassLoader classLoader) {
    return StrategyDiscovery.find(classLoader);
  }

  /** The strategy that writes {@code kind}, rules aside. */
  public ResourceStrategy forKind(ApiKind kind) {
    return named(selection.strategyFor(kind), kind.toString());
  }

  /**
   * The strategy that writes {@code resource}: the first rule of the selection that matches it,
   * else its kind's.
   */
  public ResourceStrategy forResource(HasMetadata resource) {
    return named(selection.strategyFor(resource), ApiKind.of(resource).toString());
  }

  /**
   * The installed strategy {@code name}.
   *
   * @throws StrategyConfigurationException naming the installed ones when there is none
   */
  public ResourceStrategy named(String name) {
    return named(name, "an explicit choice");
  }

  private ResourceStrategy named(String name, String usedFor) {
    ResourceStrategy strategy = installed.get(name);
    if (strategy == null) {
      throw new StrategyConfigurationException(
          "strategy '"
              + name
              + "' (for "
              + usedFor
              + ") is not installed; installed: "
              + new TreeSet<>(installed.keySet())
              + ". Fix the name, or add the jar that provides it to the classpath");
    }
    return strategy;
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
    selection
        .perKind()
        .forEach(
            (kind, name) -> {
              if (!installed.containsKey(name)) {
                missing.computeIfAbsent(name, k -> new TreeSet<>()).add(kind.toString());
              }
            });
    for (StrategyRule rule : selection.rules()) {
      if (!installed.containsKey(rule.strategy())) {
        missing.computeIfAbsent(rule.strategy(), k -> new TreeSet<>()).add(rule.description());
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    StringBuilder message = new StringBuilder("Unknown resource strategy configured: ");
    missing.forEach(
        (name, users) ->
            message
                .append("'")
                .append(name)
                .append("' (for ")
                .append(String.join(", ", users))
                .append(") "));
    message
        .append("; strategies found: ")
        .append(new TreeSet<>(installed.keySet()))
        .append(". Fix the name, or add the plugin jar that provides it to the classpath")
        .append(" (converge-strategies-update: update, converge-strategies-patch: merge-patch,")
        .append(" converge-strategies-ssa: ssa).");
    throw new StrategyConfigurationException(message.toString());
  }
}
