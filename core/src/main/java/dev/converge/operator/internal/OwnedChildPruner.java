package dev.converge.operator.internal;

import dev.converge.builder.ControllerDefinition;
import dev.converge.builder.WatchDefinition;
import dev.converge.handler.internal.EnqueueControllerOwner;
import dev.converge.strategy.ResourceWriteException;
import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.InterruptedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes, after a reconcile that ended done, the children of the owned kinds that the primary
 * controls and the reconcile did not apply or keep ({@link PrunePlan}). Reads come from the caches
 * (no LIST); each DELETE carries the cached UID and resourceVersion as preconditions and
 * propagation {@code Background}, and goes through the operator's write client, so a deposed leader
 * sends none.
 */
final class OwnedChildPruner {

  private static final Logger log = LoggerFactory.getLogger(OwnedChildPruner.class);

  /** How long one DELETE may take when the client's configuration sets no request timeout. */
  private static final long DEFAULT_TIMEOUT_MILLIS = 30_000;

  private final String controller;
  private final List<Class<? extends HasMetadata>> ownedTypes;
  private final RuntimeServices services;

  OwnedChildPruner(ControllerDefinition<?> definition, RuntimeServices services) {
    this.controller = definition.name();
    this.services = services;
    Set<Class<? extends HasMetadata>> owned = new LinkedHashSet<>();
    for (WatchDefinition<?> watch : definition.watches()) {
      if (watch.handler() instanceof EnqueueControllerOwner<?>) {
        owned.add(watch.type());
      }
    }
    this.ownedTypes = List.copyOf(owned);
  }

  /**
   * Prunes what {@code context}'s reconcile of {@code primary} left: nothing when a write of it
   * failed or the primary is being deleted.
   *
   * @throws ResourceWriteException when the API server refuses a delete (other than 404 or a failed
   *     precondition), naming the child and the primary
   */
  void prune(HasMetadata primary, ReconcileContext<?> context) {
    String owner = ResourceWriteException.describe(primary);
    Optional<String> failed = context.failedWrite();
    if (failed.isPresent()) {
      log.debug(
          "controller {}: nothing pruned for {}: a write of its reconcile failed ({})",
          controller,
          owner,
          failed.get());
      return;
    }
    if (primary.getMetadata().getDeletionTimestamp() != null) {
      return; // the garbage collector takes its children; a cleanup hook may still need them
    }
    Set<ChildKey> wanted = context.wanted();
    List<HasMetadata> doomed = new ArrayList<>();
    for (Class<? extends HasMetadata> type : ownedTypes) {
      doomed.addAll(
          PrunePlan.select(primary, services.caches().of(type).controlledBy(primary), wanted));
    }
    for (HasMetadata child : doomed) {
      delete(child, owner);
    }
  }

  private void delete(HasMetadata child, String owner) {
    String name = ResourceWriteException.describe(child);
    String request = "DELETE (pruned: no longer applied by " + owner + ")";
    KubernetesClient client = services.client();
    String body =
        client
            .getKubernetesSerialization()
            .asJson(
                new DeleteOptionsBuilder()
                    .withPropagationPolicy(DeletionPropagation.BACKGROUND.toString())
                    .withNewPreconditions()
                    .withUid(child.getMetadata().getUid())
                    .withResourceVersion(child.getMetadata().getResourceVersion())
                    .endPreconditions()
                    .build());
    HttpClient http = client.getHttpClient();
    HttpRequest sent =
        http.newHttpRequestBuilder()
            .uri(url(client, child))
            .method("DELETE", "application/json", body)
            .build();
    HttpResponse<String> response;
    try {
      response =
          http.sendAsync(sent, String.class).get(timeoutMillis(client), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException cause = new InterruptedIOException("interrupted");
      cause.initCause(e);
      throw new KubernetesClientException(name + ": " + request + " interrupted", cause);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new KubernetesClientException(
          name + ": " + request + " failed: " + cause.getMessage(), cause);
    } catch (TimeoutException e) {
      throw new KubernetesClientException(name + ": " + request + " timed out", e);
    }
    int code = response.code();
    if (response.isSuccessful()) {
      services.metrics().pruned(controller, child.getKind());
      log.info(
          "controller {}: pruned {} (controlled by {}, which no longer applies it)",
          controller,
          name,
          owner);
      return;
    }
    if (code == 404) {
      log.debug("controller {}: {} was already gone when pruned", controller, name);
      return;
    }
    if (code == 409) {
      // A precondition failed: changed or replaced since the cache saw it. Its event reconciles
      // the primary again, which decides on what it is now.
      log.info(
          "controller {}: {} not pruned: it changed since the cache read it (server said: {});"
              + " its primary {} is reconciled again",
          controller,
          name,
          message(client, response),
          owner);
      return;
    }
    throw ResourceWriteException.of(child, request, clientException(client, response));
  }

  private static KubernetesClientException clientException(
      KubernetesClient client, HttpResponse<String> response) {
    Status status = status(client, response);
    if (status != null) {
      if (status.getCode() == null || status.getCode() == 0) {
        status.setCode(response.code());
      }
      return new KubernetesClientException(status);
    }
    return new KubernetesClientException(
        "HTTP " + response.code() + ": " + response.body(), response.code(), null);
  }

  private static String message(KubernetesClient client, HttpResponse<String> response) {
    Status status = status(client, response);
    return status != null && status.getMessage() != null ? status.getMessage() : response.body();
  }

  private static Status status(KubernetesClient client, HttpResponse<String> response) {
    String text = response.body();
    if (text == null || text.isBlank()) {
      return null;
    }
    try {
      return client.getKubernetesSerialization().unmarshal(text, Status.class);
    } catch (RuntimeException notStatus) {
      log.debug("the answer to a prune DELETE is not a Status: {}", notStatus.toString());
      return null;
    }
  }

  private static long timeoutMillis(KubernetesClient client) {
    int configured =
        client.getConfiguration() == null ? 0 : client.getConfiguration().getRequestTimeout();
    return configured > 0 ? configured + 5_000L : DEFAULT_TIMEOUT_MILLIS;
  }

  private static String url(KubernetesClient client, HasMetadata child) {
    Class<? extends HasMetadata> type = child.getClass();
    String apiVersion = HasMetadata.getApiVersion(type);
    String master = client.getMasterUrl().toString().replaceAll("/+$", "");
    String namespace = child.getMetadata().getNamespace();
    return master
        + (apiVersion.contains("/") ? "/apis/" : "/api/")
        + apiVersion
        + (namespace == null || namespace.isEmpty() ? "" : "/namespaces/" + encode(namespace))
        + "/"
        + HasMetadata.getPlural(type)
        + "/"
        + encode(child.getMetadata().getName());
  }

  private static String encode(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
