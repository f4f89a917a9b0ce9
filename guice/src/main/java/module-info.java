/** Guice modules that assemble a Converge operator and a chosen set of strategies. */
module dev.converge.guice {
  requires transitive dev.converge.core;
  requires transitive com.google.guice;

  exports dev.converge.guice;

  // Guice calls the module's @Provides method by reflection
  opens dev.converge.guice to
      com.google.guice;
}
