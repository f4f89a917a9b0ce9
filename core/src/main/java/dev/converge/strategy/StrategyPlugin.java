package dev.converge.strategy;

/**
 * The entry point of a strategy jar, found with {@link java.util.ServiceLoader}: a jar lists its
 * implementation in {@code META-INF/services/dev.converge.strategy.StrategyPlugin}. The module it
 * returns registers one or more strategies with {@link StrategyMapBinder#of}.
 */
public interface StrategyPlugin {

  /** A Guice module that adds this plugin's strategies to the strategy map. */
  com.google.inject.Module module();
}
