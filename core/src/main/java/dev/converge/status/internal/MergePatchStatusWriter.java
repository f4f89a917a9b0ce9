package dev.converge.status.internal;

import dev.converge.retry.internal.ResourceText;
import dev.converge.status.StatusOutcome;
import dev.converge.status.StatusWriter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** {@link StatusWriter} that sends a JSON merge patch of the status to the status subresource. */
public final class MergePatchStatusWriter implements StatusWriter {

  private static final Logger LOG = LoggerFactory.getLogger(MergePatchStatusWriter.class);

  private final KubernetesClient client;
  private final boolean optimisticLock;

  public MergePatchStatusWriter(KubernetesClient client, boolean optimisticLock) {
    this.client = Objects.requireNonNull(client, "client");
    this.optimisticLock = optimisticLock;
  }

  @Override
  public <T extends HasMetadata> StatusOutcome<T> update(T asRead, Consumer<T> change) {
    Objects.requireNonNull(asRead, "asRead");
    Objects.requireNonNull(change, "change");
    T copy = client.getKubernetesSerialization().clone(asRead);
    change.accept(copy);
    return write(asRead, copy);
  }

  @Override
  public <T extends HasMetadata> StatusOutcome<T> write(T asRead, T withNewStatus) {
    Objects.requireNonNull(asRead, "asRead");
    Objects.requireNonNull(withNewStatus, "withNewStatus");
    Optional<String> patch =
        patchFor(client.getKubernetesSerialization(), asRead, withNewStatus, optimisticLock);
    if (patch.isEmpty()) {
      return new StatusOutcome.Unchanged<>(asRead);
    }
    LOG.debug("{}: patching status {}", ResourceText.describe(asRead), patch.get());
    T stored =
        client.resource(asRead).status().patch(PatchContext.of(PatchType.JSON_MERGE), patch.get());
    return new StatusOutcome.Written<>(stored);
  }

  @Override
  public StatusWriter withOptimisticLock() {
    return optimisticLock ? this : new MergePatchStatusWriter(client, true);
  }

  /**
   * The merge patch body for the status change from {@code asRead} to {@code withNewStatus}, or
   * empty when the status is the same. With {@code optimisticLock}, the body also carries {@code
   * asRead}'s resourceVersion; so does any patch that replaces a list (conditions, say), when
   * {@code asRead} has one: a merge patch sends a list whole, and a list built from a stale read
   * would silently drop entries another writer added since. The server answers such a write with
   * 409 and the reconcile is retried on a fresh read.
   */
  public static Optional<String> patchFor(
      KubernetesSerialization serialization,
      HasMetadata asRead,
      HasMetadata withNewStatus,
      boolean optimisticLock) {
    JsonNode before = statusOf(serialization, asRead);
    JsonNode after = statusOf(serialization, withNewStatus);
    JsonNode statusPatch = JsonMergePatch.diff(before, after);
    if (JsonMergePatch.isEmpty(statusPatch)) {
      return Optional.empty();
    }
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    String resourceVersion =
        asRead.getMetadata() == null ? null : asRead.getMetadata().getResourceVersion();
    boolean known = resourceVersion != null && !resourceVersion.isBlank();
    if (optimisticLock || (known && replacesAList(statusPatch))) {
      if (!known) {
        throw new IllegalArgumentException(
            "optimistic status write of "
                + ResourceText.describe(asRead)
                + " needs metadata.resourceVersion of the object as"
                + " read; pass the object read from the API server or the informer cache");
      }
      body.set(
          "metadata",
          JsonNodeFactory.instance.objectNode().put("resourceVersion", resourceVersion));
    }
    body.set("status", statusPatch);
    return Optional.of(serialization.asJson(body));
  }

  private static boolean replacesAList(JsonNode patch) {
    if (patch == null) {
      return false;
    }
    if (patch.isArray()) {
      return true;
    }
    for (JsonNode child : patch) {
      if (replacesAList(child)) {
        return true;
      }
    }
    return false;
  }

  private static JsonNode statusOf(KubernetesSerialization serialization, HasMetadata object) {
    JsonNode status;
    if (object instanceof CustomResource<?, ?> resource) {
      // Only the status, not the whole object: the spec and metadata play no part here.
      Object pojo = resource.getStatus();
      status = pojo == null ? null : serialization.convertValue(pojo, JsonNode.class);
    } else {
      JsonNode tree = serialization.convertValue(object, JsonNode.class);
      status = tree == null ? null : tree.get("status");
    }
    if (status != null && status.isNull()) {
      status = null;
    }
    // An empty status object and no status are the same thing to a reader; treating them alike
    // keeps a freshly constructed, empty status POJO from producing a write on every reconcile.
    if (status != null && status.isObject() && JsonMergePatch.withoutNulls(status).isEmpty()) {
      return null;
    }
    return status;
  }
}
