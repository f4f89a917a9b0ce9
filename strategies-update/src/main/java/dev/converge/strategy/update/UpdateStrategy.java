package dev.converge.strategy.update;

import dev.converge.schema.ApiKind;
import dev.converge.schema.ResourceTree;
import dev.converge.schema.SchemaNode;
import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.ResourceWriteException;
import dev.converge.strategy.ServerFieldPreserver;
import dev.converge.strategy.StrategyContext;
import dev.converge.strategy.tree.AppliedFieldsRecord;
import dev.converge.strategy.tree.DesiredState;
import dev.converge.strategy.tree.ManagedFields;
import dev.converge.strategy.tree.MergedTarget;
import dev.converge.strategy.tree.ServerDefaults;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Create-or-update: read live (cache first), merge desired into it by the kind's schema, keep what
 * the server assigned, and PUT with the live resourceVersion only when the merged object differs
 * from live in a way the server would store. A 409 is answered with a fresh read from the API
 * server and another attempt, up to a fixed budget, after which the conflict is reported.
 *
 * <p>What this controller wrote is recorded in the annotation {@value
 * AppliedFieldsRecord#ANNOTATION} (paths only, never values, bounded in size), so a field, map key,
 * list element or finalizer dropped from desired is removed on the next apply, while everything
 * other writers set stays. List elements are matched by the schema's keys, sets merge with other
 * writers' elements, atomic lists and maps are replaced whole, and one-of members desired does not
 * select are cleared.
 */
public final class UpdateStrategy implements ResourceStrategy {

  /** The configuration name. */
  public static final String NAME = "update";

  /** Attempts (first write plus conflict retries) before a conflict is reported. */
  public static final int DEFAULT_MAX_ATTEMPTS = 10;

  private static final Logger log = LoggerFactory.getLogger(UpdateStrategy.class);

  private final List<ServerFieldPreserver> preservers;
  private final int maxAttempts;

  /** With every {@link ServerFieldPreserver} found by {@link ServiceLoader}. */
  public UpdateStrategy() {
    this(discoverPreservers(), DEFAULT_MAX_ATTEMPTS);
  }

  /**
   * With the given preservers and conflict budget, for tests and for operators that choose their
   * preservers themselves.
   *
   * @param preservers what keeps server-assigned fields of particular kinds; copied
   * @param maxAttempts attempts (first write plus conflict retries) before a conflict is reported
   * @throws IllegalArgumentException when {@code maxAttempts} is less than 1
   */
  public UpdateStrategy(List<ServerFieldPreserver> preservers, int maxAttempts) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
    }
    this.preservers = List.copyOf(preservers);
    this.maxAttempts = maxAttempts;
  }

  /**
   * Every preserver on the class path of this class's loader and the context loader, each class
   * once.
   *
   * @return the preservers found; empty when there are none
   */
  public static List<ServerFieldPreserver> discoverPreservers() {
    List<ServerFieldPreserver> found = new ArrayList<>();
    ServiceLoader.load(ServerFieldPreserver.class, UpdateStrategy.class.getClassLoader())
        .forEach(found::add);
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    if (context != null && context != UpdateStrategy.class.getClassLoader()) {
      for (ServerFieldPreserver p : ServiceLoader.load(ServerFieldPreserver.class, context)) {
        if (found.stream().noneMatch(f -> f.getClass() == p.getClass())) {
          found.add(p);
        }
      }
    }
    return found;
  }

  /** POST to create, PUT with the resourceVersion to change. */
  @Override
  public Set<String> verbs() {
    return Set.of("create", "update");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public <R extends HasMetadata> ApplyResult<R> apply(R desired, StrategyContext context) {
    Map<String, Object> wanted = DesiredState.of(desired);
    return converge(desired, live -> wanted, () -> desired, true, context);
  }

  /**
   * The mutate-function style: {@code mutate} receives a copy of the live object (or of {@code
   * object} when none exists) and sets the desired values on it. It must set values, not derive
   * them from the current ones (no {@code replicas + 1}), because it runs on a fresh copy after
   * every conflict. Fields the callback drops are kept (no record is kept in this style: the
   * callback sees every field, so nothing tells its own fields from others').
   *
   * @param <R> the kind
   * @param object names the object (kind, namespace, name); used as the starting point when absent
   * @param mutate sets the desired values on a copy of the live object
   * @param context the client, schemas and field manager of the reconcile
   * @return whether the object was created, updated or left unchanged, and the object as stored
   * @throws ResourceWriteException when the API server refuses a write, or conflicts outlast the
   *     attempts
   */
  @SuppressWarnings("unchecked")
  public <R extends HasMetadata> ApplyResult<R> createOrUpdate(
      R object, Consumer<R> mutate, StrategyContext context) {
    Function<R, Map<String, Object>> desiredOf =
        live -> {
          R copy = ResourceTree.toResource(ResourceTree.of(live), (Class<R>) live.getClass());
          mutate.accept(copy);
          return DesiredState.of(copy);
        };
    return converge(
        object,
        desiredOf,
        () -> {
          R copy = ResourceTree.toResource(ResourceTree.of(object), (Class<R>) object.getClass());
          mutate.accept(copy);
          return copy;
        },
        false,
        context);
  }

  private <R extends HasMetadata> ApplyResult<R> converge(
      R target,
      Function<R, Map<String, Object>> desiredOf,
      Supplier<R> toCreate,
      boolean record,
      StrategyContext context) {
    ApiKind kind = ApiKind.of(target);
    SchemaNode schema = context.schemas().forKind(kind);
    String resource = ResourceWriteException.describe(target);
    List<String> sent = new ArrayList<>();
    Optional<R> current = context.current(target);
    for (int attempt = 1; attempt <= maxAttempts; attempt++) {
      if (current.isEmpty()) {
        R created = create(toCreate.get(), record ? schema : null, context, sent);
        if (created != null) {
          return new ApplyResult<>(ApplyOutcome.CREATED, created, String.join(", ", sent));
        }
        current = fresh(target, context);
        continue;
      }
      R live = current.get();
      Map<String, Object> liveTree = ResourceTree.of(live);
      Map<String, Object> wanted = desiredOf.apply(live);
      MergedTarget merged =
          MergedTarget.of(
              schema,
              liveTree,
              wanted,
              record,
              ManagedFields.ownManagers(context),
              outgoing -> preserve(kind, liveTree, outgoing),
              resource);
      if (!merged.unchanged()) {
        // Values written whole may hold what the server filled in: compare as the server stores
        // desired.
        Map<String, Object> filled =
            ServerDefaults.fillAtomicValues(schema, liveTree, wanted, target.getClass(), context);
        if (filled != wanted) {
          merged =
              MergedTarget.of(
                  schema,
                  liveTree,
                  filled,
                  record,
                  ManagedFields.ownManagers(context),
                  outgoing -> preserve(kind, liveTree, outgoing),
                  resource);
        }
      }
      if (merged.unchanged()) {
        return sent.isEmpty()
            ? ApplyResult.unchanged(live)
            : new ApplyResult<>(ApplyOutcome.UNCHANGED, live, String.join(", ", sent));
      }
      Map<String, Object> outgoing = merged.object();
      Map<String, Object> metadata = ResourceTree.mapAtOrCreate(outgoing, "metadata");
      metadata.remove("managedFields");
      String resourceVersion = live.getMetadata().getResourceVersion();
      metadata.put("resourceVersion", resourceVersion);
      @SuppressWarnings("unchecked")
      R body = ResourceTree.toResource(outgoing, (Class<R>) target.getClass());
      String request = "PUT rv=" + resourceVersion;
      try {
        R updated = context.client().resource(body).update();
        sent.add(request);
        if (log.isDebugEnabled()) {
          log.debug(
              "{}: updated; changed {}{}",
              resource,
              merged.patch().keySet(),
              merged.removed().isEmpty() ? "" : ", removed " + merged.removed());
        }
        return new ApplyResult<>(ApplyOutcome.UPDATED, updated, String.join(", ", sent));
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw ResourceWriteException.of(target, request, e);
        }
        sent.add(request + " (409 Conflict)");
        log.debug("{}: conflict on attempt {}, reading again", resource, attempt);
        current = fresh(target, context);
      }
    }
    throw new ResourceWriteException(
        resource,
        409,
        List.of(),
        resource
            + ": still conflicting after "
            + maxAttempts
            + " attempts ("
            + String.join(", ", sent)
            + "); another writer keeps changing the object."
            + " The reconcile fails and is retried with backoff.",
        null);
  }

  @SuppressWarnings("unchecked")
  private <R extends HasMetadata> R create(
      R desired, SchemaNode recordSchema, StrategyContext context, List<String> sent) {
    Map<String, Object> tree = ResourceTree.of(desired);
    tree.remove("status");
    Map<String, Object> metadata = ResourceTree.mapAtOrCreate(tree, "metadata");
    metadata.remove("resourceVersion");
    metadata.remove("managedFields");
    if (recordSchema != null) {
      // The record from a copy of the tree at hand: converting desired again cost as much as the
      // tree itself.
      String record =
          MergedTarget.recordOf(recordSchema, DesiredState.normalize(ResourceTree.copyMap(tree)));
      ResourceTree.mapAtOrCreate(metadata, "annotations")
          .put(AppliedFieldsRecord.ANNOTATION, record);
    }
    R object = ResourceTree.toResource(tree, (Class<R>) desired.getClass());
    try {
      R created = context.client().resource(object).create();
      sent.add("POST");
      return created;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        sent.add("POST (409 AlreadyExists)");
        return null;
      }
      throw ResourceWriteException.of(object, "POST", e);
    }
  }

  private static <R extends HasMetadata> Optional<R> fresh(R target, StrategyContext context) {
    return Optional.ofNullable(context.client().resource(target).get());
  }

  private void preserve(ApiKind kind, Map<String, Object> live, Map<String, Object> outgoing) {
    for (ServerFieldPreserver preserver : preservers) {
      if (preserver.appliesTo(kind)) {
        preserver.preserve(live, outgoing);
      }
    }
  }
}
