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
import dev.converge.strategy.StrategyConfigurationException;
import dev.converge.strategy.StrategyContext;
import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Objects;
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
    if (options.controllerReference()) {
      setController(primary, desired);
    }
    ResourceStrategy strategy =
        options
            .strategy()
            .map(name -> selector().named(name))
            .orElseGet(() -> strategyFor(desired));
    return strategy.apply(desired, strategyContext);
  }

  @Override
  public StatusOutcome<P> updateStatus(P read, Consumer<P> compute) {
    StatusOutcome<P> outcome =
        new RecomputingStatusUpdate(services.client(), services.status(), this::serverMovedPast)
            .update(read, compute);
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
