package dev.converge.testing.conformance.internal;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Writes through a subresource ({@code /scale}, {@code /status}) as another actor does: an
 * autoscaler or {@code kubectl scale} through {@code /scale}, a load-balancer controller through
 * {@code /status}. fabric8 offers no merge patch of a subresource under a field manager of one's
 * own, so this sends the request itself, and the server records it as an {@code Update} entry with
 * that manager and {@code subresource} set.
 */
public final class Subresources {

  private static final Map<String, Optional<APIResource>> RESOURCES = new ConcurrentHashMap<>();

  private Subresources() {}

  /**
   * A JSON merge patch of {@code ref}'s subresource under {@code fieldManager}. Throws a {@link
   * KubernetesClientException} with the server's code when it refuses.
   */
  public static void mergePatch(
      KubernetesClient client,
      HasMetadata ref,
      String subresource,
      String fieldManager,
      String body) {
    String apiVersion = ref.getApiVersion();
    APIResource resource =
        resource(client, apiVersion, ref.getKind())
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "the server lists no resource of kind "
                            + ref.getKind()
                            + " "
                            + apiVersion));
    String master = client.getMasterUrl().toString().replaceAll("/+$", "");
    String url =
        master
            + (apiVersion.contains("/") ? "/apis/" : "/api/")
            + apiVersion
            + "/namespaces/"
            + ref.getMetadata().getNamespace()
            + "/"
            + resource.getName()
            + "/"
            + ref.getMetadata().getName()
            + "/"
            + subresource
            + "?fieldManager="
            + fieldManager;
    HttpClient http = client.getHttpClient();
    HttpRequest request =
        http.newHttpRequestBuilder()
            .uri(url)
            .method("PATCH", "application/merge-patch+json", body)
            .build();
    HttpResponse<String> response;
    try {
      response = http.sendAsync(request, String.class).get(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubernetesClientException("interrupted while patching " + url, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new KubernetesClientException("PATCH " + url + " failed: " + e.getMessage(), e);
    }
    if (!response.isSuccessful()) {
      throw new KubernetesClientException(
          "PATCH " + url + " " + body + " answered " + response.code() + ": " + response.body(),
          response.code(),
          null);
    }
  }

  private static Optional<APIResource> resource(
      KubernetesClient client, String apiVersion, String kind) {
    return RESOURCES.computeIfAbsent(
        apiVersion + "/" + kind,
        k -> {
          APIResourceList list = client.getApiResources(apiVersion);
          if (list == null) {
            return Optional.empty();
          }
          return list.getResources().stream()
              .filter(r -> kind.equals(r.getKind()) && !r.getName().contains("/"))
              .findFirst();
        });
  }
}
