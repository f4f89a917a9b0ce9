package com.example.replace;

import com.google.inject.AbstractModule;
import com.google.inject.Module;
import dev.converge.strategy.StrategyMapBinder;
import dev.converge.strategy.StrategyPlugin;

/** The plugin entry listed in this source set's META-INF/services. */
public final class DryRunReplacePlugin implements StrategyPlugin {

  @Override
  public Module module() {
    return new AbstractModule() {
      @Override
      protected void configure() {
        StrategyMapBinder.of(binder())
            .addBinding(DryRunReplaceStrategy.NAME)
            .to(DryRunReplaceStrategy.class);
      }
    };
  }
}
