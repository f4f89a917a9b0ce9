package dev.converge.example.api;

import dev.converge.crd.BundledCrds;
import dev.converge.crd.CrdGenerator;
import dev.converge.crd.CrdInstaller;
import dev.converge.crd.GeneratedCrd;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;

/**
 * The AppDeployment CRD as the build generated it (into the jar, next to the classes), and its
 * installation for tools that run with cluster-admin rights: the demo, the tests, a one-off {@code
 * install-crd}. The operator itself never installs its CRD, so that its ClusterRole need not allow
 * writing CRDs.
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
    return bundledOrGenerated().yaml();
  }

  /** The CRD generated from the annotated classes now. */
  public static GeneratedCrd generated() {
    return CrdGenerator.generate(
            AppDeployment.class, dev.converge.example.api.v2.AppDeploymentV2.class)
        .get(0);
  }

  /**
   * Creates or updates the CRD with server-side apply and waits until the API server serves it.
   *
   * @throws dev.converge.crd.CrdGenerationException when it is rejected or not Established within
   *     {@code timeout}
   */
  public static void install(KubernetesClient client, Duration timeout) {
    CrdInstaller.install(client, List.of(bundledOrGenerated()), timeout);
  }

  private static GeneratedCrd bundledOrGenerated() {
    return BundledCrds.load(AppDeploymentCrd.class.getClassLoader()).stream()
        .filter(crd -> crd.name().equals(AppDeployment.CRD_NAME))
        .findFirst()
        .orElseGet(AppDeploymentCrd::generated);
  }
}
