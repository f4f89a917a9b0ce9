/**
 * A real local Kubernetes control plane for tests, and its JUnit 5 extension. Only {@code
 * dev.converge.testing} is exported; {@code dev.converge.testing.internal} (the processes, ports
 * and certificates of the cluster) stays readable to this module alone.
 *
 * <p>On the module path, the HTTP client (fabric8's OkHttp one, a runtime dependency) is added with
 * {@code --add-modules okhttp3}, and the jars {@code okio-<version>.jar} and {@code
 * okhttp-<version>.jar} (Kotlin multiplatform metadata without classes) are left off the path: the
 * first takes the module name {@code okio} from the real {@code okio-jvm}.
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
  // Needed by fabric8's client for its JSON and YAML: fabric8's jars are automatic modules, which
  // cannot declare what they need, so the module that uses them names it.
  requires tools.jackson.databind;
  requires tools.jackson.dataformat.yaml;

  exports dev.converge.testing;
}
