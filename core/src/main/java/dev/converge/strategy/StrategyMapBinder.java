package dev.converge.strategy;

import com.google.inject.Binder;
import com.google.inject.multibindings.MapBinder;

/**
 * The Guice map of installed strategies, name to strategy. Every plugin module, and any operator
 * module that wants to add its own strategy, contributes with {@code
 * StrategyMapBinder.of(binder()).addBinding("my-strategy").to(MyStrategy.class)}.
 */
public final class StrategyMapBinder {

  private StrategyMapBinder() {}

  /** The shared {@code Map<String, ResourceStrategy>} binder. */
  public static MapBinder<String, ResourceStrategy> of(Binder binder) {
    return MapBinder.newMapBinder(binder, String.class, ResourceStrategy.class);
  }
}
