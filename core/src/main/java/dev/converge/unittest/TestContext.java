package dev.converge.unittest;

import dev.converge.event.EventRecorder;
import dev.converge.owner.InvalidOwnerException;
import dev.converge.owner.OwnerReferences;
import dev.converge.reconcile.ApplyOptions;
import dev.converge.reconcile.Context;
import dev.converge.reconcile.ObjectKey;
import dev.converge.source.Caches;
import dev.converge.status.StatusOutcome;
import dev.converge.status.StatusWriter;
import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.CreateOnlyStrategy;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategyContext;
import dev.converge.unittest.internal.MemoryStore;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@link Context} for unit tests of a reconciler, in memory: objects given with {@link #with}
 * stand in for the informer caches; {@link #apply} stores the desired object as the live one (with
 * the owner reference the real context sets, keeping the live status, bumping generation when
 * anything but metadata and status changed, leaving an existing object alone when the call names
 * the create-only strategy) and reports CREATED, UPDATED or UNCHANGED; status writes and Events are
 * recorded. There is no API server behind it: {@link #client()} throws, and nothing here defaults
 * fields, garbage-collects or runs other controllers, so a test sets the status of a workload
 * itself with {@link #edit}, as its controller would.
 *
 * <pre>{@code
 * TestContext<AppDeployment> context = TestContext.of(app).with(configMap);
 * Result result = reconciler.reconcile(app, context);
 * context.edit(Deployment.class, "web", d -> d.setStatus(readyStatus));
 * reconciler.reconcile(context.primary(), context);
 * assertThat(context.primary().getStatus().getPhase()).isEqualTo(Phase.Running);
 * }</pre>
 *
 * <p>Not thread-safe; one per test.
 *
 * @param <P> the primary kind
 */
public final class TestContext<P extends HasMetadata> implements Context<P> {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private final MemoryStore store = new MemoryStore(JSON);
  private final Class<P> primaryType;
  private final ObjectKey key;
  private final List<HasMetadata> applied = new ArrayList<>();
  private final List<P> statusWrites = new ArrayList<>();
  private final List<RecordedEvent> events = new ArrayList<>();
  private final ResourceStrategy inMemory = new InMemoryApply();
  private final P initial;
  private int retries;

  private TestContext(P primary) {
    @SuppressWarnings("unchecked")
    Class<P> type = (Class<P>) primary.getClass();
    this.primaryType = type;
    this.key = ObjectKey.of(primary);
    P stored = JSON.clone(primary);
    store.put(stored);
    this.initial = JSON.clone(stored);
  }

  /**
   * A context reconciling {@code primary}, which is stored (with a uid, so it can own what the
   * reconciler applies) and read back through {@link #primary()}.
   *
   * @param <P> the primary kind
   * @param primary the primary as the test wants the reconciler to see it; a copy is stored
   * @return a context holding only the primary
   */
  public static <P extends HasMetadata> TestContext<P> of(P primary) {
    Objects.requireNonNull(primary, "primary");
    return new TestContext<>(primary);
  }

  /**
   * Puts copies of {@code objects} in the caches, replacing objects of the same kind and name: what
   * the informers would hold when the reconcile runs.
   *
   * @param objects the objects the reconciler may read
   * @return this context
   */
  public TestContext<P> with(HasMetadata... objects) {
    for (HasMetadata object : objects) {
      store.put(JSON.clone(object));
    }
    return this;
  }

  /**
   * Sets what {@link #retries()} returns, to test how a reconciler behaves after failures.
   *
   * @param count the number of failed attempts before this reconcile
   * @return this context
   */
  public TestContext<P> withRetries(int count) {
    this.retries = count;
    return this;
  }

  /**
   * The primary as stored now (a copy): its status is the last one written.
   *
   * @return a copy of the stored primary
   * @throws IllegalStateException when the test deleted it with {@link #deletePrimary()}
   */
  public P primary() {
    return get(primaryType, key.name())
        .orElseThrow(
            () ->
                new IllegalStateException(
                    primaryType.getSimpleName() + " " + key + " was deleted in this test"));
  }

  /** Deletes the primary, as a user would between two reconciles; its status writes become Gone. */
  public void deletePrimary() {
    store.remove(primaryType, key);
  }

  /**
   * Changes the stored object of {@code type} named {@code name} in the primary's namespace, as
   * another actor would (its controller writing status, a user editing it).
   *
   * @param <R> the kind
   * @param type the kind's class
   * @param name the object's name
   * @param change what to change on the stored object
   * @return this context
   * @throws IllegalArgumentException when there is none
   */
  public <R extends HasMetadata> TestContext<P> edit(
      Class<R> type, String name, Consumer<R> change) {
    R stored =
        store
            .stored(type, key.namespace(), name)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "no "
                            + type.getSimpleName()
                            + " "
                            + key.namespace()
                            + "/"
                            + name
                            + " in the test context; add it with with(...) or let the reconciler apply it"));
    change.accept(stored);
    return this;
  }

  /**
   * Every object passed to {@code apply}, in order, as it was written (owner reference set).
   *
   * @return the applied objects; empty when nothing was applied
   */
  public List<HasMetadata> applied() {
    return List.copyOf(applied);
  }

  /**
   * The objects of {@code type} passed to {@code apply}, in order.
   *
   * @param <R> the kind
   * @param type the kind's class
   * @return the applied objects of that kind; empty when there are none
   */
  public <R extends HasMetadata> List<R> applied(Class<R> type) {
    return applied.stream().filter(type::isInstance).map(type::cast).toList();
  }

  /**
   * The primary after each status write that sent something, in order; a write that changed nothing
   * is not listed, as it would send no request.
   *
   * @return the primary as each status write left it
   */
  public List<P> statusWrites() {
    return List.copyOf(statusWrites);
  }

  /**
   * The Events recorded, in order.
   *
   * @return the recorded Events; empty when there were none
   */
  public List<RecordedEvent> recordedEvents() {
    return List.copyOf(events);
  }

  @Override
  public ObjectKey key() {
    return key;
  }

  @Override
  public String controllerName() {
    return "test";
  }

  @Override
  public int retries() {
    return retries;
  }

  /** There is no API server behind a test context. */
  @Override
  public KubernetesClient client() {
    throw new UnsupportedOperationException(
        "a TestContext has no API server: read through"
            + " get(...) or cache(...), write through apply(...) and updateStatus(...), or test this"
            + " code path in an integration test");
  }

  @Override
  public Caches caches() {
    return store;
  }

  @Override
  public <R extends HasMetadata> List<R> owned(Class<R> type) {
    return store.of(type).controlledBy(primary());
  }

  /** The in-memory apply, whatever the kind. */
  @Override
  public ResourceStrategy strategyFor(HasMetadata desired) {
    return inMemory;
  }

  @Override
  public StrategyContext strategyContext() {
    return new StrategyContext() {
      @Override
      public KubernetesClient client() {
        return TestContext.this.client();
      }

      @Override
      public String fieldManager() {
        return "test";
      }

      @Override
      public <R extends HasMetadata> Optional<R> cached(
          Class<R> type, String namespace, String name) {
        return store.of(type).get(namespace, name);
      }
    };
  }

  @Override
  public <R extends HasMetadata> ApplyResult<R> apply(R desired, ApplyOptions options) {
    if (options.controllerReference()) {
      try {
        // A primary deleted during the test still owns what its last reconcile writes.
        P owner = store.stored(primaryType, key.namespace(), key.name()).orElse(initial);
        OwnerReferences.setControllerIfAbsent(owner, desired);
      } catch (InvalidOwnerException e) {
        throw new InvalidOwnerException(
            e.getMessage()
                + "; to write it without an owner"
                + " reference, pass ApplyOptions.withoutOwnerReference() to Context.apply");
      }
    }
    if (options.strategy().filter(CreateOnlyStrategy.NAME::equals).isPresent()) {
      @SuppressWarnings("unchecked")
      Class<R> type = (Class<R>) desired.getClass();
      Optional<R> live =
          store.stored(type, desired.getMetadata().getNamespace(), desired.getMetadata().getName());
      if (live.isPresent()) {
        // as the create-only strategy does: an object that exists is never written again
        applied.add(JSON.clone(desired));
        return new ApplyResult<>(
            ApplyOutcome.UNCHANGED, JSON.clone(live.get()), "in-memory create-only: exists");
      }
    }
    return inMemory.apply(desired, strategyContext());
  }

  @Override
  public StatusOutcome<P> updateStatus(P read, Consumer<P> compute) {
    if (store.stored(primaryType, key.namespace(), key.name()).isEmpty()) {
      return new StatusOutcome.Gone<>(read);
    }
    return status().update(read, compute);
  }

  @Override
  public StatusWriter status() {
    return new StatusWriter() {
      @Override
      public <T extends HasMetadata> StatusOutcome<T> update(T asRead, Consumer<T> change) {
        T copy = JSON.clone(asRead);
        change.accept(copy);
        return write(asRead, copy);
      }

      @Override
      public <T extends HasMetadata> StatusOutcome<T> write(T asRead, T withNewStatus) {
        JsonNode before = tree(asRead).get("status");
        JsonNode after = tree(withNewStatus).get("status");
        if (Objects.equals(before, after)) {
          return new StatusOutcome.Unchanged<>(asRead);
        }
        @SuppressWarnings("unchecked")
        Class<T> type = (Class<T>) asRead.getClass();
        T stored =
            store
                .stored(type, asRead.getMetadata().getNamespace(), asRead.getMetadata().getName())
                .orElseThrow(
                    () ->
                        new IllegalStateException(
                            "status write for "
                                + type.getSimpleName()
                                + " "
                                + ObjectKey.of(asRead)
                                + ", which is not in the test context"));
        T updated = JSON.clone(stored);
        ObjectNode merged = (ObjectNode) tree(updated);
        merged.set("status", after);
        updated = JSON.convertValue(merged, type);
        store.put(updated);
        if (primaryType.isInstance(updated) && ObjectKey.of(updated).equals(key)) {
          statusWrites.add(primaryType.cast(JSON.clone(updated)));
        }
        return new StatusOutcome.Written<>(JSON.clone(updated));
      }

      @Override
      public StatusWriter withOptimisticLock() {
        return this;
      }
    };
  }

  @Override
  public EventRecorder events() {
    return (involved, type, reason, message) ->
        events.add(new RecordedEvent(involved, type, reason, message));
  }

  private static JsonNode tree(HasMetadata object) {
    return JSON.convertValue(object, JsonNode.class);
  }

  /** What an API server does with a desired object, minus defaulting and validation. */
  private final class InMemoryApply implements ResourceStrategy {

    @Override
    public String name() {
      return "in-memory";
    }

    @Override
    public <R extends HasMetadata> ApplyResult<R> apply(R desired, StrategyContext context) {
      Objects.requireNonNull(desired.getMetadata(), "metadata of the desired object");
      applied.add(JSON.clone(desired));
      @SuppressWarnings("unchecked")
      Class<R> type = (Class<R>) desired.getClass();
      String namespace = desired.getMetadata().getNamespace();
      Optional<R> live = store.stored(type, namespace, desired.getMetadata().getName());
      R written = JSON.clone(desired);
      if (live.isEmpty()) {
        written.getMetadata().setGeneration(1L);
        store.put(written);
        return new ApplyResult<>(ApplyOutcome.CREATED, JSON.clone(written), "in-memory create");
      }
      ObjectNode before = (ObjectNode) tree(live.get());
      ObjectNode after = (ObjectNode) tree(written);
      if (before.has("status")) {
        after.set("status", before.get("status"));
      } else {
        after.remove("status");
      }
      ObjectNode meta = (ObjectNode) after.get("metadata");
      for (String serverField :
          List.of("uid", "creationTimestamp", "generation", "resourceVersion")) {
        JsonNode value = before.get("metadata").get(serverField);
        if (value != null) {
          meta.set(serverField, value);
        }
      }
      if (before.equals(after)) {
        return ApplyResult.unchanged(JSON.clone(live.get()));
      }
      if (!withoutMetadataAndStatus(before).equals(withoutMetadataAndStatus(after))) {
        long generation =
            live.get().getMetadata().getGeneration() == null
                ? 1
                : live.get().getMetadata().getGeneration();
        meta.put("generation", generation + 1);
      }
      R updated = JSON.convertValue(after, type);
      store.put(updated);
      return new ApplyResult<>(ApplyOutcome.UPDATED, JSON.clone(updated), "in-memory update");
    }

    private static ObjectNode withoutMetadataAndStatus(ObjectNode object) {
      ObjectNode copy = object.deepCopy();
      copy.remove("metadata");
      copy.remove("status");
      return copy;
    }
  }
}
