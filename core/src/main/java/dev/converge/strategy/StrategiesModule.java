package dev.converge.strategy;

import com.google.inject.AbstractModule;
import com.google.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The Guice way to the strategies: binds every strategy listed in {@code
 * META-INF/services/dev.converge.strategy.ResourceStrategy}, installs every {@link StrategyPlugin}
 * found on the classpath, and binds a validated {@link StrategySelector} for the given selection.
 * (Without Guice, {@link StrategySelector#discover(StrategySelection)} finds the same strategies.)
 * A selection naming a strategy that no plugin provides fails injector creation with a {@link
 * StrategyConfigurationException} listing what was found.
 *
 * <pre>{@code
 * Injector injector = Guice.createInjector(
 *     new StrategiesModule(StrategySelection.parse("default=update, apps/v1/Deployment=ssa")));
 * StrategySelector strategies = injector.getInstance(StrategySelector.class);
 * }</pre>
 *
 * Operators can add strategies of their own in any other module with {@link StrategyMapBinder#of}.
 */
public final class StrategiesModule extends AbstractModule {

  private final StrategySelection selection;
  private final ClassLoader classLoader;

  public StrategiesModule(StrategySelection selection) {
    this(selection, Thread.currentThread().getContextClassLoader());
  }

  public StrategiesModule(StrategySelection selection, ClassLoader classLoader) {
    this.selection = Objects.requireNonNull(selection, "selection");
    this.classLoader = classLoader == null ? StrategiesModule.class.getClassLoader() : classLoader;
  }

  @Override
  protected void configure() {
    // A jar may offer one strategy both ways; the selector keeps one instance per name and
    // rejects two different classes under one name.
    var strategies = StrategyMapBinder.of(binder()).permitDuplicates();
    for (ResourceStrategy strategy : ServiceLoader.load(ResourceStrategy.class, classLoader)) {
      strategies.addBinding(strategy.name()).toInstance(strategy);
    }
    for (StrategyPlugin plugin : ServiceLoader.load(StrategyPlugin.class, classLoader)) {
      install(plugin.module());
    }
    bind(StrategySelection.class).toInstance(selection);
    bind(StrategySelector.class).toProvider(SelectorProvider.class).asEagerSingleton();
  }

  // A provider class rather than @Provides so that asEagerSingleton() fails injector creation in
  // every Stage, not only in PRODUCTION.
  @Singleton
  static final class SelectorProvider implements com.google.inject.Provider<StrategySelector> {
    private final Map<String, Set<ResourceStrategy>> installed;
    private final StrategySelection selection;

    @jakarta.inject.Inject
    SelectorProvider(Map<String, Set<ResourceStrategy>> installed, StrategySelection selection) {
      this.installed = installed;
      this.selection = selection;
    }

    @Override
    public StrategySelector get() {
      List<ResourceStrategy> all = new ArrayList<>();
      installed.values().forEach(all::addAll);
      return new StrategySelector(StrategyDiscovery.byName(all), selection);
    }
  }
}
