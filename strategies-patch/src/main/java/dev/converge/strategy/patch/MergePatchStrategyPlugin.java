package dev.converge.strategy.patch;

import com.google.inject.AbstractModule;
import com.google.inject.Module;
import dev.converge.strategy.StrategyMapBinder;
import dev.converge.strategy.StrategyPlugin;

/**
 * Registers {@link MergePatchStrategy} as {@value MergePatchStrategy#NAME}; found through
 * ServiceLoader.
 */
public final class MergePatchStrategyPlugin implements StrategyPlugin {

  @Override
  public Module module() {
    return new MergePatchStrategyModule();
  }

  /** Adds {@link MergePatchStrategy} to the strategy map. */
  public static final class MergePatchStrategyModule extends AbstractModule {
    @Override
    protected void configure() {
      StrategyMapBinder.of(binder())
          .addBinding(MergePatchStrategy.NAME)
          .toInstance(new MergePatchStrategy());
    }

    // Equal by class so that installing it twice (discovered and explicit) binds once.
    @Override
    public boolean equals(Object other) {
      return other instanceof MergePatchStrategyModule;
    }

    @Override
    public int hashCode() {
      return MergePatchStrategyModule.class.hashCode();
    }
  }
}
