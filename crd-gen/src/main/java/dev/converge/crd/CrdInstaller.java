package dev.converge.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Installs generated CRDs with server-side apply and waits until the API server serves them ({@code
 * Established} and {@code NamesAccepted}) and publishes their schemas in its OpenAPI v3 documents,
 * so a test or a launcher can create resources right after and a strategy reads the kind's list and
 * map semantics from its first write on.
 */
public final class CrdInstaller {

  /** The field manager of the apply requests. */
  public static final String FIELD_MANAGER = "converge-crd-gen";

  private CrdInstaller() {}

  /**
   * Applies the CRDs (server-side apply) and waits until the API server has established them and
   * publishes their schemas.
   *
   * @param client a client allowed to apply CRDs
   * @param crds what {@link CrdGenerator} or {@link BundledCrds} returned
   * @param timeout how long to wait for each CRD to be established and served
   * @throws CrdGenerationException when the API server rejects a CRD (with its reason) or does not
   *     establish it within {@code timeout} (with its conditions)
   */
  public static void install(KubernetesClient client, List<GeneratedCrd> crds, Duration timeout) {
    for (GeneratedCrd crd : crds) {
      try {
        client
            .apiextensions()
            .v1()
            .customResourceDefinitions()
            .resource(crd.definition())
            .fieldManager(FIELD_MANAGER)
            .forceConflicts()
            .serverSideApply();
      } catch (KubernetesClientException e) {
        throw new CrdGenerationException(
            "CustomResourceDefinition "
                + crd.name()
                + " was rejected by the API"
                + " server: "
                + e.getMessage(),
            e);
      }
    }
    for (GeneratedCrd crd : crds) {
      try {
        client
            .apiextensions()
            .v1()
            .customResourceDefinitions()
            .withName(crd.name())
            .waitUntilCondition(
                CrdInstaller::established, timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (KubernetesClientTimeoutException e) {
        CustomResourceDefinition live =
            client.apiextensions().v1().customResourceDefinitions().withName(crd.name()).get();
        throw new CrdGenerationException(
            "CustomResourceDefinition "
                + crd.name()
                + " was not established within "
                + timeout
                + "; conditions: "
                + (live == null || live.getStatus() == null
                    ? "none"
                    : live.getStatus().getConditions()),
            e);
      }
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    for (GeneratedCrd crd : crds) {
      awaitPublished(client, crd.definition(), deadline);
    }
  }

  /**
   * Applies one CRD built in code rather than generated (a test fixture such as {@code
   * dev.converge.testing.WidgetCrd}) and waits as {@link #install(KubernetesClient, List,
   * Duration)} does.
   *
   * @param client the client that applies it (by server-side apply, as {@value #FIELD_MANAGER})
   * @param crd the CustomResourceDefinition
   * @param timeout how long to wait until the API server serves the kind and its schema
   * @throws CrdGenerationException when the API server rejects the CRD or does not establish it
   *     within {@code timeout}
   */
  public static void install(
      KubernetesClient client, CustomResourceDefinition crd, Duration timeout) {
    install(
        client,
        List.of(
            new GeneratedCrd(
                crd.getMetadata().getName(), crd, client.getKubernetesSerialization().asYaml(crd))),
        timeout);
  }

  /**
   * Waits until every served version of {@code crd} is in the API server's OpenAPI v3 documents;
   * the server publishes them a moment after it establishes the CRD. A server without OpenAPI v3 is
   * not waited for.
   */
  private static void awaitPublished(
      KubernetesClient client, CustomResourceDefinition crd, long deadline) {
    String group = crd.getSpec().getGroup();
    String kind = crd.getSpec().getNames().getKind();
    for (var version : crd.getSpec().getVersions()) {
      if (!Boolean.TRUE.equals(version.getServed())) {
        continue;
      }
      while (true) {
        Boolean published = published(client, group, version.getName(), kind);
        if (published == null || published) {
          break;
        }
        if (System.nanoTime() > deadline) {
          throw new CrdGenerationException(
              "CustomResourceDefinition "
                  + crd.getMetadata().getName()
                  + " is established but the API server has not published the OpenAPI schema of "
                  + group
                  + "/"
                  + version.getName()
                  + " "
                  + kind
                  + " in time",
              null);
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new CrdGenerationException(
              "interrupted while waiting for the OpenAPI schema of " + kind, e);
        }
      }
    }
  }

  /**
   * Whether the kind is in its group-version's OpenAPI v3 document; null when the server has none.
   */
  @SuppressWarnings("unchecked")
  private static Boolean published(
      KubernetesClient client, String group, String version, String kind) {
    String index;
    try {
      index = client.raw("/openapi/v3");
    } catch (KubernetesClientException e) {
      return null;
    }
    if (index == null) {
      return null;
    }
    Object paths = client.getKubernetesSerialization().unmarshal(index, Map.class).get("paths");
    Object entry = paths instanceof Map<?, ?> p ? p.get("apis/" + group + "/" + version) : null;
    if (!(entry instanceof Map<?, ?> e) || !(e.get("serverRelativeURL") instanceof String url)) {
      return false;
    }
    String document = client.raw(url);
    if (document == null) {
      return false;
    }
    Object components =
        client.getKubernetesSerialization().unmarshal(document, Map.class).get("components");
    Object schemas = components instanceof Map<?, ?> c ? c.get("schemas") : null;
    if (!(schemas instanceof Map<?, ?> all)) {
      return false;
    }
    for (Object schema : all.values()) {
      if (schema instanceof Map<?, ?> s
          && s.get("x-kubernetes-group-version-kind") instanceof List<?> gvks) {
        for (Object gvk : gvks) {
          if (gvk instanceof Map<?, ?> g
              && group.equals(g.get("group"))
              && version.equals(g.get("version"))
              && kind.equals(g.get("kind"))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * {@return whether the CRD's {@code Established} and {@code NamesAccepted} conditions are {@code
   * True}}
   *
   * @param crd the CRD as read from the API server; {@code null} counts as not established
   */
  public static boolean established(CustomResourceDefinition crd) {
    if (crd == null || crd.getStatus() == null || crd.getStatus().getConditions() == null) {
      return false;
    }
    long satisfied =
        crd.getStatus().getConditions().stream()
            .filter(
                c ->
                    ("Established".equals(c.getType()) || "NamesAccepted".equals(c.getType()))
                        && "True".equals(c.getStatus()))
            .count();
    return satisfied == 2;
  }
}
