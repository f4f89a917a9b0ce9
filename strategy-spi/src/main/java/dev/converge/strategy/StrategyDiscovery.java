package dev.converge.strategy;

import java.util.Collection;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Finds the strategies on a class path through {@link ServiceLoader}; see {@link
 * StrategySelector#findInstalled}.
 */
final class StrategyDiscovery {

  private StrategyDiscovery() {}

  /**
   * The strategies {@code classLoader} sees, by name.
   *
   * @throws StrategyConfigurationException when two different classes claim one name, or a listed
   *     class cannot be loaded or constructed
   */
  static Map<String, ResourceStrategy> find(ClassLoader classLoader) {
    ClassLoader loader =
        classLoader == null ? StrategyDiscovery.class.getClassLoader() : classLoader;
    Map<String, ResourceStrategy> found = new TreeMap<>();
    try {
      for (ResourceStrategy strategy : ServiceLoader.load(ResourceStrategy.class, loader)) {
        add(found, strategy);
      }
    } catch (ServiceConfigurationError e) {
      throw new StrategyConfigurationException(
          "A strategy listed in META-INF/services/"
              + ResourceStrategy.class.getName()
              + " cannot be loaded: "
              + e.getMessage()
              + "; it must be a public class with a public no-argument constructor");
    }
    return Map.copyOf(found);
  }

  /**
   * Adds {@code strategy} under its name; another instance of the same class under that name (a jar
   * that offers a strategy both ways) is the same strategy.
   */
  static void add(Map<String, ResourceStrategy> found, ResourceStrategy strategy) {
    String name = strategy.name();
    if (name == null || name.isBlank()) {
      throw new StrategyConfigurationException(
          "Strategy "
              + strategy.getClass().getName()
              + " has a blank name(); give it a unique name such as \"my-strategy\"");
    }
    ResourceStrategy existing = found.putIfAbsent(name, strategy);
    if (existing != null && existing.getClass() != strategy.getClass()) {
      throw new StrategyConfigurationException(
          "Two strategies are named '"
              + name
              + "': "
              + existing.getClass().getName()
              + " and "
              + strategy.getClass().getName()
              + "; remove one jar from the classpath or rename one strategy");
    }
  }

  /** One strategy per name from {@code candidates}, checked as {@link #find} checks them. */
  static Map<String, ResourceStrategy> byName(Collection<ResourceStrategy> candidates) {
    Map<String, ResourceStrategy> found = new TreeMap<>();
    candidates.forEach(strategy -> add(found, strategy));
    return found;
  }
}
