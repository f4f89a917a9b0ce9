/** Runs an operator inside an integration test on the local control plane. */
module dev.converge.testing.operator {
  requires transitive dev.converge.core;
  requires transitive dev.converge.testing;
  requires dev.converge.crd;
  requires awaitility;
  requires org.slf4j;

  exports dev.converge.testing.operator;
}
