/**
 * A real local Kubernetes control plane for tests, and its JUnit 5 extension. Only {@code
 * dev.converge.testing} is exported; {@code dev.converge.testing.internal} (the processes, ports
 * and certificates of the cluster) stays readable to this module alone.
 */
module dev.converge.testing {
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.core;
  requires transitive kubernetes.model.apiextensions;
  requires awaitility;
  requires transitive org.junit.jupiter.api;
  requires java.net.http;
  requires org.bouncycastle.pkix;
  requires org.bouncycastle.provider;
  requires org.slf4j;

  exports dev.converge.testing;
}
