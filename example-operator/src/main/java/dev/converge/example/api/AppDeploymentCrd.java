package dev.converge.example.api;

import dev.converge.crd.CrdGenerator;
import dev.converge.crd.GeneratedCrd;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The AppDeployment CRD as the build generated it (into the jar, next to the classes), and its
 * installation for tools that run with cluster-admin rights: the demo, the tests, a one-off
 * {@code install-crd}. The operator itself never installs its CRD, so that its ClusterRole need
 * not allow writing CRDs.
 */
public final class AppDeploymentCrd {

  /** Resource path of the generated YAML inside the jar. */
  public static final String RESOURCE =
      GeneratedCrd.RESOURCE_FOLDER + "/" + AppDeployment.CRD_NAME + ".yaml";

  private AppDeploymentCrd() {}

  /**
   * The CRD YAML written at build time; generated on the spot when running from sources that were
   * compiled without the build step (an IDE), which gives the same text.
   */
  public static String yaml() {
    try (InputStream in = AppDeploymentCrd.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in != null) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + RESOURCE + " from the classpath", e);
    }
    return generated().yaml();
  }

  /** The CRD generated from the annotated classes now. */
  public static GeneratedCrd generated() {
    return CrdGenerator.generate(AppDeployment.class).get(0);
  }

  /**
   * Creates or updates the CRD with server-side apply and waits until the API server serves it.
   *
   * @throws IllegalStateException when it is not Established within {@code timeout}
   */
  public static void install(KubernetesClient client, Duration timeout) {
    CustomResourceDefinition crd =
        client.getKubernetesSerialization().unmarshal(yaml(), CustomResourceDefinition.class);
    client.apiextensions().v1().customResourceDefinitions().resource(crd)
        .fieldManager("converge-crd-install").forceConflicts().serverSideApply();
    CustomResourceDefinition established = client.apiextensions().v1().customResourceDefinitions()
        .withName(crd.getMetadata().getName())
        .waitUntilCondition(AppDeploymentCrd::isEstablished, timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (!isEstablished(established)) {
      throw new IllegalStateException("CustomResourceDefinition " + crd.getMetadata().getName()
          + " was not Established within " + timeout);
    }
  }

  private static boolean isEstablished(CustomResourceDefinition crd) {
    return crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null
        && crd.getStatus().getConditions().stream()
            .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
  }
}
