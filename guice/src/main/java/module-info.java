/** Guice modules that assemble a Converge operator and a chosen set of strategies. */
module dev.converge.guice {
  requires transitive dev.converge.core;
  requires transitive dev.converge.strategy.spi;
  // Named here rather than only through dev.converge.core: a Converge jar carries an
  // Automatic-Module-Name, not its descriptor, and an automatic module passes on no requires.
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.common;
  requires transitive kubernetes.model.core;
  requires transitive micrometer.core;
  requires transitive com.google.guice;

  exports dev.converge.guice;

  // Guice calls the module's @Provides method by reflection
  opens dev.converge.guice to
      com.google.guice;
}
