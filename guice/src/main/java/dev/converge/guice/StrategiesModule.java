package dev.converge.guice;

import com.google.inject.AbstractModule;
import com.google.inject.multibindings.MapBinder;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategyConfigurationException;
import dev.converge.strategy.StrategySelector;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Binds a chosen set of the strategies found on the classpath (the {@code META-INF/services}
 * entries of the strategy jars) into {@link ConvergeModule#strategies}, so that the operator
 * chooses among exactly these and the ones your modules bind there. Naming a strategy that no jar
 * provides fails injector creation with a {@link StrategyConfigurationException} listing what was
 * found.
 *
 * <pre>{@code
 * Guice.createInjector(new ConvergeModule(...), new StrategiesModule("ssa", "update"), ...);
 * }</pre>
 */
public final class StrategiesModule extends AbstractModule {

  private final List<String> names;
  private final ClassLoader classLoader;

  /**
   * The strategies named, or every strategy found when none is named, among those this module's
   * class loader sees.
   *
   * @param names the strategies' names, such as {@code ssa} or {@code update}
   */
  public StrategiesModule(String... names) {
    this(StrategiesModule.class.getClassLoader(), names);
  }

  /**
   * As {@link #StrategiesModule(String...)}, among the strategies {@code classLoader} sees: for
   * applications that load strategy jars with a class loader of their own.
   *
   * @param classLoader where to look for {@code META-INF/services} entries
   * @param names the strategies' names; none for every strategy found
   */
  public StrategiesModule(ClassLoader classLoader, String... names) {
    this.classLoader = Objects.requireNonNull(classLoader, "classLoader");
    this.names = List.of(names);
  }

  @Override
  protected void configure() {
    Map<String, ResourceStrategy> found = StrategySelector.findInstalled(classLoader);
    MapBinder<String, ResourceStrategy> strategies = ConvergeModule.strategies(binder());
    if (names.isEmpty()) {
      found.forEach((name, strategy) -> strategies.addBinding(name).toInstance(strategy));
      return;
    }
    for (String name : names) {
      ResourceStrategy strategy = found.get(name);
      if (strategy == null) {
        throw new StrategyConfigurationException(
            "strategy '"
                + name
                + "' is not on the classpath; found: "
                + new TreeSet<>(found.keySet())
                + ". Fix the name, or add the jar that provides it");
      }
      strategies.addBinding(name).toInstance(strategy);
    }
  }
}
