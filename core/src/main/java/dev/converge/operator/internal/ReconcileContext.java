package dev.converge.operator.internal;

import dev.converge.event.EventRecorder;
import dev.converge.reconcile.Context;
import dev.converge.reconcile.ObjectKey;
import dev.converge.source.Caches;
import dev.converge.status.StatusWriter;
import dev.converge.strategy.ApiKind;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategyContext;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/** The context of one reconcile. */
final class ReconcileContext<P extends HasMetadata> implements Context<P> {

  private final ObjectKey key;
  private final String controllerName;
  private final int retries;
  private final P primary;
  private final RuntimeServices services;
  private final StrategyContext strategyContext;

  ReconcileContext(ObjectKey key, String controllerName, int retries, P primary,
      RuntimeServices services) {
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
    var selector = services.strategies().orElseThrow(() -> new IllegalStateException(
        "no resource strategies configured for controller " + controllerName
            + ": pass a StrategySelector to OperatorBuilder.strategies(...), or install"
            + " StrategiesModule with the Guice module"));
    ApiKind kind = ApiKind.of(desired);
    ResourceStrategy strategy = selector.forKind(kind);
    if (strategy == null) {
      throw new IllegalStateException("no strategy installed for " + kind);
    }
    return strategy;
  }

  @Override
  public StrategyContext strategyContext() {
    return strategyContext;
  }

  @Override
  public StatusWriter status() {
    return services.status();
  }

  @Override
  public EventRecorder events() {
    return services.events();
  }
}
