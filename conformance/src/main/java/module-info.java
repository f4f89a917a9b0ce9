/**
 * The strategy conformance kit and differential fuzzer: JUnit base classes a strategy's tests
 * extend, judged on the local control plane independently of the strategy's own code.
 */
module dev.converge.testing.conformance {
  requires transitive dev.converge.core;
  requires transitive dev.converge.strategy.spi;
  // Named here rather than only through dev.converge.core: a Converge jar carries an
  // Automatic-Module-Name, not its descriptor, and an automatic module passes on no requires.
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.common;
  requires transitive kubernetes.model.core;
  requires transitive kubernetes.model.apps;
  requires tools.jackson.databind;
  requires transitive dev.converge.testing;
  requires transitive org.junit.jupiter.api;
  requires dev.converge.crd;
  requires kubernetes.model.apiextensions;
  requires awaitility;
  requires org.opentest4j;
  requires org.slf4j;

  exports dev.converge.testing.conformance;
  exports dev.converge.testing.conformance.fuzz;

  // JUnit finds and calls the kits' test methods by reflection
  opens dev.converge.testing.conformance to
      org.junit.platform.commons;
  opens dev.converge.testing.conformance.fuzz to
      org.junit.platform.commons;
}
