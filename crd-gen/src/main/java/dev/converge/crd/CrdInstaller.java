package dev.converge.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Installs generated CRDs with server-side apply and waits until the API server serves them
 * ({@code Established} and {@code NamesAccepted}), so a test or a launcher can create resources right after.
 */
public final class CrdInstaller {

  /** The field manager of the apply requests. */
  public static final String FIELD_MANAGER = "converge-crd-gen";

  private CrdInstaller() {
  }

  /**
   * @throws CrdGenerationException when the API server rejects a CRD (with its reason) or does not establish
   *     it within {@code timeout} (with its conditions)
   */
  public static void install(KubernetesClient client, List<GeneratedCrd> crds, Duration timeout) {
    for (GeneratedCrd crd : crds) {
      try {
        client.apiextensions().v1().customResourceDefinitions().resource(crd.definition())
            .fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
      } catch (KubernetesClientException e) {
        throw new CrdGenerationException("CustomResourceDefinition " + crd.name() + " was rejected by the API"
            + " server: " + e.getMessage(), e);
      }
    }
    for (GeneratedCrd crd : crds) {
      try {
        client.apiextensions().v1().customResourceDefinitions().withName(crd.name())
            .waitUntilCondition(CrdInstaller::established, timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (KubernetesClientTimeoutException e) {
        CustomResourceDefinition live = client.apiextensions().v1().customResourceDefinitions()
            .withName(crd.name()).get();
        throw new CrdGenerationException("CustomResourceDefinition " + crd.name() + " was not established within "
            + timeout + "; conditions: " + (live == null || live.getStatus() == null ? "none"
            : live.getStatus().getConditions()), e);
      }
    }
  }

  /** True when the CRD's {@code Established} and {@code NamesAccepted} conditions are {@code True}. */
  public static boolean established(CustomResourceDefinition crd) {
    if (crd == null || crd.getStatus() == null || crd.getStatus().getConditions() == null) {
      return false;
    }
    long satisfied = crd.getStatus().getConditions().stream()
        .filter(c -> ("Established".equals(c.getType()) || "NamesAccepted".equals(c.getType()))
            && "True".equals(c.getStatus()))
        .count();
    return satisfied == 2;
  }
}
