package dev.converge.strategy;

/**
 * The Guice entry point of a strategy jar whose strategies need injection, found with {@link
 * java.util.ServiceLoader}: a jar lists its implementation in {@code
 * META-INF/services/dev.converge.strategy.StrategyPlugin}, and the module it returns registers one
 * or more strategies with {@link StrategyMapBinder#of}. A strategy with a no-argument constructor
 * needs none of this: list it in {@code META-INF/services/dev.converge.strategy.ResourceStrategy}
 * (see {@link StrategyDiscovery}). Plugins are honoured with or without Guice in the operator.
 */
public interface StrategyPlugin {

  /** A Guice module that adds this plugin's strategies to the strategy map. */
  com.google.inject.Module module();
}
