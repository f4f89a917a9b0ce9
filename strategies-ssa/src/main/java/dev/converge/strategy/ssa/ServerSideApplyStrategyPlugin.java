package dev.converge.strategy.ssa;

import com.google.inject.AbstractModule;
import com.google.inject.Module;
import dev.converge.strategy.StrategyMapBinder;
import dev.converge.strategy.StrategyPlugin;

/**
 * Registers {@link ServerSideApplyStrategy} as {@value ServerSideApplyStrategy#NAME} with force on;
 * found through ServiceLoader. To apply without force, add another instance under a name of your
 * own: {@code StrategyMapBinder.of(binder()).addBinding("ssa-no-force").toInstance(new
 * ServerSideApplyStrategy(false, Set.of()))}.
 */
public final class ServerSideApplyStrategyPlugin implements StrategyPlugin {

  @Override
  public Module module() {
    return new ServerSideApplyStrategyModule();
  }

  /** Adds {@link ServerSideApplyStrategy} to the strategy map. */
  public static final class ServerSideApplyStrategyModule extends AbstractModule {
    @Override
    protected void configure() {
      StrategyMapBinder.of(binder())
          .addBinding(ServerSideApplyStrategy.NAME)
          .toInstance(new ServerSideApplyStrategy());
    }

    // Equal by class so that installing it twice (discovered and explicit) binds once.
    @Override
    public boolean equals(Object other) {
      return other instanceof ServerSideApplyStrategyModule;
    }

    @Override
    public int hashCode() {
      return ServerSideApplyStrategyModule.class.hashCode();
    }
  }
}
