package dev.converge.strategy.update;

import com.google.inject.AbstractModule;
import com.google.inject.Module;
import dev.converge.strategy.StrategyMapBinder;
import dev.converge.strategy.StrategyPlugin;

/**
 * Registers {@link UpdateStrategy} as {@value UpdateStrategy#NAME}; found through ServiceLoader.
 */
public final class UpdateStrategyPlugin implements StrategyPlugin {

  @Override
  public Module module() {
    return new UpdateStrategyModule();
  }

  /**
   * Binds {@link UpdateStrategy} (injectable for the mutate-function style) and adds it to the map.
   */
  public static final class UpdateStrategyModule extends AbstractModule {
    @Override
    protected void configure() {
      bind(UpdateStrategy.class).toInstance(new UpdateStrategy());
      StrategyMapBinder.of(binder()).addBinding(UpdateStrategy.NAME).to(UpdateStrategy.class);
    }

    // Equal by class so that installing it twice (discovered and explicit) binds once.
    @Override
    public boolean equals(Object other) {
      return other instanceof UpdateStrategyModule;
    }

    @Override
    public int hashCode() {
      return UpdateStrategyModule.class.hashCode();
    }
  }
}
