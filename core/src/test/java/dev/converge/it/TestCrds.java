package dev.converge.it;

import static org.awaitility.Awaitility.await;

import dev.converge.crd.CrdInstaller;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.WidgetCrd;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;

/**
 * Installs the shared Widget test CRD ({@link WidgetCrd}) through crd-gen's {@link CrdInstaller}.
 * Core's tests cannot use converge-testing-operator's {@code TestCrds} (that module depends on
 * core), so core keeps this small helper of its own. CRDs are cluster-wide, so every test class
 * uses a class (and API group) of its own.
 */
public final class TestCrds {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private TestCrds() {}

  /**
   * Installs with a client of its own: a {@code KubernetesClient} parameter of a {@code @BeforeAll}
   * method would give the whole class one namespace, shared by every test method.
   */
  public static CustomResourceDefinition install(
      LocalCluster cluster, Class<? extends HasMetadata> type) {
    try (KubernetesClient client = cluster.newClient()) {
      return install(client, type);
    }
  }

  /** The Widget CRD of a custom resource class: its group, version, kind and plural. */
  public static CustomResourceDefinition install(
      KubernetesClient client, Class<? extends HasMetadata> type) {
    CustomResourceDefinition crd = install(client, WidgetCrd.of(type));
    // a typed client of the class lists it as the test's operator will
    await()
        .atMost(TIMEOUT)
        .ignoreExceptions()
        .until(() -> client.resources(type).inAnyNamespace().list() != null);
    return crd;
  }

  /** Applies the definition and waits until the API server serves it and publishes its schema. */
  public static CustomResourceDefinition install(KubernetesClient client, WidgetCrd widget) {
    CustomResourceDefinition crd = widget.build();
    CrdInstaller.install(client, crd, TIMEOUT);
    return crd;
  }

  /** Deletes the definition and with it every object of its kind. */
  public static void uninstall(KubernetesClient client, WidgetCrd widget) {
    client.apiextensions().v1().customResourceDefinitions().withName(widget.name()).delete();
  }
}
