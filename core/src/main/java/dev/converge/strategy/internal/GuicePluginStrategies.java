package dev.converge.strategy.internal;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Key;
import com.google.inject.Module;
import com.google.inject.TypeLiteral;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategyMapBinder;
import dev.converge.strategy.StrategyPlugin;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The strategies that {@link StrategyPlugin}s register with Guice, obtained from a private injector
 * holding only those plugins' modules, for callers that use no injector of their own.
 */
public final class GuicePluginStrategies {

  private static final Key<Map<String, Set<ResourceStrategy>>> ALL =
      Key.get(new TypeLiteral<Map<String, Set<ResourceStrategy>>>() {});

  private GuicePluginStrategies() {}

  /** Every strategy the plugins {@code classLoader} sees register; several may share a name. */
  public static List<ResourceStrategy> find(ClassLoader classLoader) {
    List<Module> modules = new ArrayList<>();
    for (StrategyPlugin plugin : ServiceLoader.load(StrategyPlugin.class, classLoader)) {
      modules.add(plugin.module());
    }
    if (modules.isEmpty()) {
      return List.of();
    }
    modules.add(
        new AbstractModule() {
          @Override
          protected void configure() {
            StrategyMapBinder.of(binder()).permitDuplicates();
          }
        });
    List<ResourceStrategy> found = new ArrayList<>();
    Guice.createInjector(modules).getInstance(ALL).values().forEach(found::addAll);
    return found;
  }
}
