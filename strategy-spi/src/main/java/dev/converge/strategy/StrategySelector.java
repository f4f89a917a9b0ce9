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
   * A selector over {@code installed}, checking that every strategy {@code selection} names is
   * there.
   *
   * @param installed the strategies by name, as {@link #findInstalled} returns them
   * @param selection which strategy writes which object
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
   * @param selection which strategy writes which object
   * @return a selector whose every choice is installed
   * @throws StrategyConfigurationException when the selection names a strategy not found, or the
   *     classpath offers a strategy that cannot be loaded or two strategies of one name
   */
  public static StrategySelector discover(StrategySelection selection) {
    return discover(selection, StrategySelector.class.getClassLoader());
  }

  /**
   * As {@link #discover(StrategySelection)}, with the strategies {@code classLoader} sees.
   *
   * @param selection which strategy writes which object
   * @param classLoader the loader whose {@code META-INF/services} entries list the strategies; null
   *     for {@code StrategySelector}'s own
   * @return a selector whose every choice is installed
   * @throws StrategyConfigurationException when the selection names a strategy not found, or the
   *     loader offers a strategy that cannot be loaded or two strategies of one name
   */
  public static StrategySelector discover(StrategySelection selection, ClassLoader classLoader) {
    return new StrategySelector(StrategyDiscovery.find(classLoader), selection);
  }

  /**
   * {@code strategies} selected by {@code selection}.
   *
   * @param strategies the strategies to choose from, found or made by the caller
   * @param selection which strategy writes which object
   * @return a selector whose every choice is among {@code strategies}
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
   * @param classLoader the loader whose {@code META-INF/services} entries are read; null for {@code
   *     StrategySelector}'s own
   * @return the strategies by name, unmodifiable
   * @throws StrategyConfigurationException when two different classes claim one name, or a listed
   *     class cannot be loaded or constructed
   */
  public static Map<String, ResourceStrategy> findInstalled(ClassLoader classLoader) {
    return StrategyDiscovery.find(classLoader);
  }

  /**
   * The strategy that writes {@code kind}, rules aside.
   *
   * @param kind a kind
   * @return its override's strategy, else the default one
   */
  public ResourceStrategy forKind(ApiKind kind) {
    return named(selection.strategyFor(kind), kind.toString());
  }

  /**
   * The strategy that writes {@code resource}: the first rule of the selection that matches it,
   * else its kind's.
   *
   * @param resource a desired object, whose apiVersion and kind are set
   * @return the strategy to apply it with
   */
  public ResourceStrategy forResource(HasMetadata resource) {
    return named(selection.strategyFor(resource), ApiKind.of(resource).toString());
  }

  /**
   * The installed strategy {@code name}.
   *
   * @param name a strategy's name
   * @return the strategy
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

  /**
   * Installed strategies by name.
   *
   * @return every strategy this selector may choose, unmodifiable
   */
  public Map<String, ResourceStrategy> installed() {
    return installed;
  }

  /**
   * The selection this selector was built from.
   *
   * @return the selection
   */
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
