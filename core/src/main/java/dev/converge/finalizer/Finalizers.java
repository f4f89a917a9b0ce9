package dev.converge.finalizer;

import dev.converge.retry.ConflictRetry;
import dev.converge.retry.internal.ResourceText;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Adds and removes one finalizer on an object without disturbing the finalizers of others.
 *
 * <p>Each write is a JSON merge patch of {@code metadata.finalizers} that carries the
 * resourceVersion of the object it was computed from, so it can only replace the list it has seen:
 * when someone else changed the object in between, the API server answers 409 and the change is
 * recomputed on a fresh read (bounded by a {@link ConflictRetry}). Merge patch works for custom
 * resources too, unlike strategic merge patch. Both operations are idempotent and send nothing when
 * there is nothing to do. The object passed in is never modified.
 *
 * <p>Every write is bound to the object the decision was made for, by its UID: the fresh read after
 * a conflict is by name, and the name may meanwhile belong to a new object (the old one deleted, a
 * new one created in its place). Removing the new object's finalizer would let it be deleted
 * without its cleanup, and adding one to it would act for an object this caller has not seen. So
 * when the fresh read shows another UID, nothing is written: {@link #remove} reports the object it
 * was given as gone, {@link #add} throws a 409 conflict naming the resource, which the runtime
 * retries on a fresher read. (The first write needs no such check: it carries the resourceVersion
 * of the object it was computed from, which no other object shares.)
 */
public final class Finalizers {

  private static final Logger LOG = LoggerFactory.getLogger(Finalizers.class);

  private final KubernetesClient client;
  private final ConflictRetry retry;

  /**
   * Finalizers written with {@code client}, retrying conflicts with {@link
   * ConflictRetry#defaults()}, which sleeps briefly between attempts. On a reconcile worker, which
   * must not sleep, pass a retry with {@link dev.converge.retry.Pause#none()} instead.
   *
   * @param client the client that reads and patches
   */
  public Finalizers(KubernetesClient client) {
    this(client, ConflictRetry.defaults());
  }

  /**
   * Finalizers written with {@code client}, retrying conflicts with {@code retry}.
   *
   * @param client the client that reads and patches
   * @param retry how conflicts are retried
   */
  public Finalizers(KubernetesClient client, ConflictRetry retry) {
    this.client = Objects.requireNonNull(client, "client");
    this.retry = Objects.requireNonNull(retry, "retry");
  }

  /**
   * Whether {@code object}, as given (no request is made), carries {@code finalizer}.
   *
   * @param object the object; may be null
   * @param finalizer the finalizer's name
   * @return true when the object's {@code metadata.finalizers} lists it
   */
  public static boolean contains(HasMetadata object, String finalizer) {
    return object != null
        && object.getMetadata() != null
        && object.getMetadata().getFinalizers() != null
        && object.getMetadata().getFinalizers().contains(finalizer);
  }

  /**
   * Adds {@code finalizer} to {@code object} on the API server.
   *
   * @param <T> the kind
   * @param object the object as read from the API server or a cache; not modified
   * @param finalizer a domain-qualified name such as {@code example.com/cleanup}
   * @return the object as stored, or {@code object} itself when the finalizer was already there
   * @throws IllegalArgumentException when {@code finalizer} is not a qualified name such as {@code
   *     example.com/cleanup}
   * @throws IllegalStateException when the object is already being deleted (the API server accepts
   *     no new finalizers then)
   * @throws KubernetesClientException with code 409 when, after a conflict, the name belongs to a
   *     new object (another UID): the object the finalizer was meant for is gone
   */
  public <T extends HasMetadata> T add(T object, String finalizer) {
    validate(object, finalizer);
    if (contains(object, finalizer)) {
      return object;
    }
    String resource = ResourceText.describe(object);
    try {
      return retry.call(resource, attempt -> addOnce(object, finalizer, resource, attempt));
    } catch (Replaced replaced) {
      // Thrown past the retry on purpose: another read would find the same new object.
      throw new KubernetesClientException(
          "finalizer "
              + finalizer
              + " not added to "
              + resource
              + ": the object it was meant for (uid "
              + object.getMetadata().getUid()
              + ") was deleted, and the name now belongs to a new object (uid "
              + replaced.uid
              + "); the new object is reconciled on its own",
          HttpURLConnection.HTTP_CONFLICT,
          null);
    }
  }

  private <T extends HasMetadata> T addOnce(
      T object, String finalizer, String resource, int attempt) {
    T current = attempt == 1 ? object : client.resource(object).require();
    if (ConflictRetry.replaced(object, current)) {
      throw new Replaced(current.getMetadata().getUid());
    }
    if (contains(current, finalizer)) {
      return current;
    }
    if (current.getMetadata().getDeletionTimestamp() != null) {
      throw new IllegalStateException(
          "cannot add finalizer "
              + finalizer
              + " to "
              + resource
              + ": it is being deleted, and the API server accepts no new finalizers then");
    }
    List<String> finalizers = new ArrayList<>(listOf(current));
    finalizers.add(finalizer);
    return patch(current, finalizers);
  }

  /**
   * Removes {@code finalizer} from {@code object} on the API server. Removing the last finalizer of
   * an object that is being deleted lets the deletion complete.
   *
   * @param <T> the kind
   * @param object the object as read from the API server or a cache; not modified
   * @param finalizer a domain-qualified name such as {@code example.com/cleanup}
   * @return the object as stored after the removal, or {@code object} itself when the finalizer was
   *     not there or the object is already gone (also when its name now belongs to a new object,
   *     whose finalizers are left alone)
   * @throws IllegalArgumentException when {@code finalizer} is not a qualified name such as {@code
   *     example.com/cleanup}
   */
  public <T extends HasMetadata> T remove(T object, String finalizer) {
    validate(object, finalizer);
    if (!contains(object, finalizer)) {
      return object;
    }
    String resource = ResourceText.describe(object);
    return retry.call(
        resource,
        attempt -> {
          T current = attempt == 1 ? object : client.resource(object).get();
          if (current != null && ConflictRetry.replaced(object, current)) {
            LOG.info(
                "{}: finalizer {} not removed: the object it was meant for (uid {}) is gone, and"
                    + " the name now belongs to a new object (uid {}), whose finalizers are left"
                    + " to its own reconcile",
                resource,
                finalizer,
                object.getMetadata().getUid(),
                current.getMetadata().getUid());
            return object;
          }
          if (current == null || !contains(current, finalizer)) {
            return current == null ? object : current;
          }
          List<String> finalizers = new ArrayList<>(listOf(current));
          finalizers.removeIf(finalizer::equals);
          try {
            return patch(current, finalizers);
          } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
              // Gone already (the copy came from a cache a moment behind): nothing left to release.
              return object;
            }
            throw e;
          }
        });
  }

  private <T extends HasMetadata> T patch(T current, List<String> finalizers) {
    String resourceVersion = current.getMetadata().getResourceVersion();
    if (resourceVersion == null || resourceVersion.isBlank()) {
      throw new IllegalArgumentException(
          ResourceText.describe(current)
              + " has no"
              + " metadata.resourceVersion; pass the object as read from the API server or a cache");
    }
    JsonNodeFactory json = JsonNodeFactory.instance;
    ArrayNode list = json.arrayNode();
    finalizers.forEach(list::add);
    ObjectNode metadata = json.objectNode().put("resourceVersion", resourceVersion);
    metadata.set("finalizers", list);
    ObjectNode body = json.objectNode();
    body.set("metadata", metadata);
    return client
        .resource(current)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            client.getKubernetesSerialization().asJson(body));
  }

  /** The name found to belong to a new object; carries that object's UID out of the retry. */
  private static final class Replaced extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String uid;

    Replaced(String uid) {
      super(null, null, false, false);
      this.uid = uid;
    }
  }

  private static List<String> listOf(HasMetadata object) {
    List<String> list = object.getMetadata().getFinalizers();
    return list == null ? List.of() : list;
  }

  private static void validate(HasMetadata object, String finalizer) {
    Objects.requireNonNull(object, "object");
    if (object.getMetadata() == null) {
      throw new IllegalArgumentException("object has no metadata: " + object);
    }
    if (finalizer == null
        || !HasMetadata.validateFinalizer(finalizer)
        || !finalizer.contains("/")) {
      throw new IllegalArgumentException(
          "finalizer \""
              + finalizer
              + "\" for "
              + ResourceText.describe(object)
              + " must be a domain-qualified name such as"
              + " \"example.com/cleanup\"");
    }
  }
}
