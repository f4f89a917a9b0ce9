/** Runs an operator inside an integration test on the local control plane. */
module dev.converge.testing.operator {
  requires transitive dev.converge.core;
  requires transitive dev.converge.strategy.spi;
  // Named here rather than only through dev.converge.core: a Converge jar carries an
  // Automatic-Module-Name, not its descriptor, and an automatic module passes on no requires.
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.common;
  requires transitive kubernetes.model.core;
  requires kubernetes.model.apiextensions;
  requires transitive micrometer.core;
  requires transitive dev.converge.testing;
  requires dev.converge.crd;
  requires awaitility;
  requires org.slf4j;

  exports dev.converge.testing.operator;
}
