package dev.converge.example.controller;

import dev.converge.event.EventRecorder;
import dev.converge.example.api.AppDeployment;
import dev.converge.reconcile.Context;
import dev.converge.reconcile.ObjectKey;
import dev.converge.source.Caches;
import dev.converge.status.StatusOutcome;
import dev.converge.status.StatusWriter;
import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategyContext;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A {@link Context} for unit tests of the reconciler: objects held in a map stand in for the
 * informer caches, {@link #apply} stores the desired object as live (keeping a status the test put
 * there, as the API server would), and status writes are recorded. Anything else fails loudly.
 */
final class FakeContext implements Context<AppDeployment> {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private final ObjectKey key;
  private final Map<String, HasMetadata> objects = new HashMap<>();
  final List<HasMetadata> applied = new ArrayList<>();
  final List<AppDeployment> statusWrites = new ArrayList<>();
  /** When set, status writes fail with it (e.g. a 404 for an object deleted meanwhile). */
  RuntimeException statusFailure;

  FakeContext(ObjectKey key) {
    this.key = key;
  }

  /** Puts an object "in the cache". */
  FakeContext with(HasMetadata object) {
    objects.put(id(object.getClass(), object.getMetadata().getName()), object);
    return this;
  }

  <R extends HasMetadata> Optional<R> live(Class<R> type, String name) {
    return Optional.ofNullable(type.cast(objects.get(id(type, name))));
  }

  @Override
  public ObjectKey key() {
    return key;
  }

  @Override
  public String controllerName() {
    return "appdeployment";
  }

  @Override
  public int retries() {
    return 0;
  }

  @Override
  public KubernetesClient client() {
    throw new UnsupportedOperationException("the reconciler under test must not call the API server here");
  }

  @Override
  public Caches caches() {
    throw new UnsupportedOperationException("use get(type, name)");
  }

  @Override
  public <R extends HasMetadata> Optional<R> get(Class<R> type, String name) {
    return live(type, name).map(JSON::clone);
  }

  @Override
  public <R extends HasMetadata> List<R> owned(Class<R> type) {
    throw new UnsupportedOperationException();
  }

  @Override
  public ResourceStrategy strategyFor(HasMetadata desired) {
    throw new UnsupportedOperationException("apply is faked directly");
  }

  @Override
  public StrategyContext strategyContext() {
    throw new UnsupportedOperationException("apply is faked directly");
  }

  @Override
  public dev.converge.status.StatusOutcome<AppDeployment> updateStatus(AppDeployment read,
      Consumer<AppDeployment> compute) {
    return status().update(read, compute);
  }

  @Override
  @SuppressWarnings("unchecked")
  public <R extends HasMetadata> ApplyResult<R> apply(R desired,
      dev.converge.reconcile.ApplyOptions options) {
    applied.add(desired);
    Optional<R> current = live((Class<R>) desired.getClass(), desired.getMetadata().getName());
    R live = JSON.clone(desired);
    current.ifPresent(c -> {
      live.getMetadata().setGeneration(c.getMetadata().getGeneration());
      copyStatus(c, live);
    });
    with(live);
    return new ApplyResult<>(current.isEmpty() ? ApplyOutcome.CREATED : ApplyOutcome.UPDATED, live, "fake");
  }

  @Override
  public StatusWriter status() {
    return new StatusWriter() {
      @Override
      public <T extends HasMetadata> StatusOutcome<T> update(T asRead, Consumer<T> change) {
        if (statusFailure != null) {
          throw statusFailure;
        }
        T copy = JSON.clone(asRead);
        change.accept(copy);
        statusWrites.add((AppDeployment) copy);
        return new StatusOutcome.Written<>(copy);
      }

      @Override
      public <T extends HasMetadata> StatusOutcome<T> write(T asRead, T withNewStatus) {
        statusWrites.add((AppDeployment) withNewStatus);
        return new StatusOutcome.Written<>(withNewStatus);
      }

      @Override
      public StatusWriter withOptimisticLock() {
        return this;
      }
    };
  }

  @Override
  public EventRecorder events() {
    return EventRecorder.discarding();
  }

  private static void copyStatus(HasMetadata from, HasMetadata to) {
    if (from instanceof io.fabric8.kubernetes.api.model.apps.Deployment f
        && to instanceof io.fabric8.kubernetes.api.model.apps.Deployment t) {
      t.setStatus(f.getStatus());
    }
  }

  private static String id(Class<?> type, String name) {
    return type.getSimpleName() + "/" + name;
  }
}
