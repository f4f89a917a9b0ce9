package dev.converge.operator.internal;

import dev.converge.event.EventRecorder;
import dev.converge.owner.InvalidOwnerException;
import dev.converge.owner.OwnerReferences;
import dev.converge.reconcile.ApplyOptions;
import dev.converge.reconcile.Context;
import dev.converge.reconcile.ObjectKey;
import dev.converge.source.Caches;
import dev.converge.status.StatusOutcome;
import dev.converge.status.StatusWriter;
import dev.converge.status.internal.RecomputingStatusUpdate;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.ResourceWriteException;
import dev.converge.strategy.StrategyConfigurationException;
import dev.converge.strategy.StrategyContext;
import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/** The context of one reconcile. */
final class ReconcileContext<P extends HasMetadata> implements Context<P> {

  /** Strategies found on the classpath with the default selection, for operators that set none. */
  private static volatile StrategySelector discoveredDefaults;

  private final ObjectKey key;
  private final String controllerName;
  private final int retries;
  private final P primary;
  private final RuntimeServices services;
  private final StrategyContext strategyContext;
  private volatile boolean primaryGone;

  /** What this reconcile applied or kept: left alone by pruning. */
  private final Set<ChildKey> wanted = ConcurrentHashMap.newKeySet();

  /** The first write of this reconcile that failed, described; null while none has. */
  private volatile String failedWrite;

  ReconcileContext(
      ObjectKey key, String controllerName, int retries, P primary, RuntimeServices services) {
    this.key = key;
    this.controllerName = controllerName;
    this.retries = retries;
    this.primary = primary;
    this.services = services;
    this.strategyContext =
        new CachedStrategyContext(services.client(), services.fieldManager(), services.caches());
  }

  @Override
  public ObjectKey key() {
    return key;
  }

  @Override
  public String controllerName() {
    return controllerName;
  }

  @Override
  public int retries() {
    return retries;
  }

  @Override
  public KubernetesClient client() {
    return services.client();
  }

  @Override
  public Caches caches() {
    return services.caches();
  }

  @Override
  public <R extends HasMetadata> List<R> owned(Class<R> type) {
    return caches().of(type).controlledBy(primary);
  }

  @Override
  public ResourceStrategy strategyFor(HasMetadata desired) {
    return selector().forResource(desired);
  }

  @Override
  public StrategyContext strategyContext() {
    return strategyContext;
  }

  @Override
  public <R extends HasMetadata> ApplyResult<R> apply(R desired, ApplyOptions options) {
    wanted.add(ChildKey.of(desired, primary.getMetadata().getNamespace()));
    try {
      if (options.controllerReference()) {
        setController(primary, desired);
        // A sharded replica caches owned kinds by its shard label: its children carry it.
        services.shard().ifPresent(share -> share.label(desired));
      }
      ResourceStrategy strategy =
          options
              .strategy()
              .map(name -> selector().named(name))
              .orElseGet(() -> strategyFor(desired));
      return strategy.apply(desired, strategyContext);
    } catch (RuntimeException e) {
      failed("apply of " + ResourceWriteException.describe(desired), e);
      throw e;
    }
  }

  @Override
  public void keep(HasMetadata child) {
    Objects.requireNonNull(child, "child");
    wanted.add(ChildKey.of(child, primary.getMetadata().getNamespace()));
  }

  private void failed(String write, RuntimeException e) {
    if (failedWrite == null) {
      failedWrite = write + ": " + e.getMessage();
    }
  }

  /** What this reconcile applied or kept. */
  Set<ChildKey> wanted() {
    return Set.copyOf(wanted);
  }

  /** The first write of this reconcile that failed, even if the reconciler caught its exception. */
  Optional<String> failedWrite() {
    return Optional.ofNullable(failedWrite);
  }

  @Override
  public StatusOutcome<P> updateStatus(P read, Consumer<P> compute) {
    StatusOutcome<P> outcome;
    try {
      outcome =
          new RecomputingStatusUpdate(services.client(), services.status(), this::serverMovedPast)
              .update(read, compute);
    } catch (RuntimeException e) {
      failed("status write of " + ResourceWriteException.describe(read), e);
      throw e;
    }
    if (outcome instanceof StatusOutcome.Gone<P>
        && Objects.equals(read.getMetadata().getUid(), primary.getMetadata().getUid())) {
      primaryGone = true;
    }
    return outcome;
  }

  /** A write found the cached {@code read} behind the API server: the cache may be stale. */
  private void serverMovedPast(HasMetadata read, String evidence) {
    if (services.caches() instanceof SharedInformers informers) {
      informers.serverMovedPast(read, evidence);
    }
  }

  /** True once a status write found the primary deleted on the API server. */
  boolean primaryGone() {
    return primaryGone;
  }

  @Override
  public StatusWriter status() {
    return services.status();
  }

  @Override
  public EventRecorder events() {
    return services.events();
  }

  /**
   * Makes {@code owner} the controller of {@code desired}, as {@code Context.apply} does by
   * default, naming the opt-out when the API server's rules forbid the reference.
   */
  static void setController(HasMetadata owner, HasMetadata desired) {
    try {
      OwnerReferences.setControllerIfAbsent(owner, desired);
    } catch (InvalidOwnerException e) {
      throw new InvalidOwnerException(
          e.getMessage()
              + "; to write it without an owner reference,"
              + " pass ApplyOptions.withoutOwnerReference() to Context.apply");
    }
  }

  private StrategySelector selector() {
    return services.strategies().orElseGet(ReconcileContext::discoveredDefaults);
  }

  private static StrategySelector discoveredDefaults() {
    StrategySelector selector = discoveredDefaults;
    if (selector == null) {
      try {
        selector = StrategySelector.discover(StrategySelection.defaults());
      } catch (StrategyConfigurationException e) {
        throw new StrategyConfigurationException(
            "No strategies were configured, and the default"
                + " cannot be used: "
                + e.getMessage()
                + " Or configure them with"
                + " OperatorBuilder.strategies(StrategySelection) or the StrategiesModule.");
      }
      discoveredDefaults = selector;
    }
    return selector;
  }
}
