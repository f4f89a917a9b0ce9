/**
 * What a strategy author builds on: the {@code ResourceStrategy} SPI and the choice of a strategy
 * per kind ({@code strategy}), the object trees, managed fields and server defaults a strategy
 * compares ({@code strategy.tree}), and the API server's schemas with the merges and comparisons
 * they drive ({@code schema}). Operator authors get it through {@code dev.converge.core}; a
 * strategy needs this module only, not the reconcile runtime. The {@code internal} packages are not
 * exported: they change in any release.
 */
module dev.converge.strategy.spi {
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.common;
  requires transitive kubernetes.model.core;
  requires transitive tools.jackson.databind;
  requires tools.jackson.module.blackbird;
  requires org.slf4j;

  exports dev.converge.schema;
  exports dev.converge.strategy;
  exports dev.converge.strategy.tree;

  uses dev.converge.strategy.ResourceStrategy;

  provides dev.converge.strategy.ResourceStrategy with
      dev.converge.strategy.CreateOnlyStrategy;
}
