package dev.converge.operator.internal;

import dev.converge.event.EventRecorder;
import dev.converge.metrics.ControllerMetrics;
import dev.converge.queue.RateLimit;
import dev.converge.queue.internal.Ticker;
import dev.converge.source.Caches;
import dev.converge.status.StatusWriter;
import dev.converge.strategy.StrategySelector;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;

/** What every controller of one operator shares. */
public record RuntimeServices(
    KubernetesClient client,
    Caches caches,
    ControllerMetrics metrics,
    EventRecorder events,
    StatusWriter status,
    Optional<StrategySelector> strategies,
    String fieldManager,
    Ticker ticker,
    RateLimit rateLimit,
    RejectedObjects rejected,
    AccessChecks access,
    Optional<ShardShare> shard) {

  /** The services of an operator that is not sharded. */
  public RuntimeServices(
      KubernetesClient client,
      Caches caches,
      ControllerMetrics metrics,
      EventRecorder events,
      StatusWriter status,
      Optional<StrategySelector> strategies,
      String fieldManager,
      Ticker ticker,
      RateLimit rateLimit,
      RejectedObjects rejected,
      AccessChecks access) {
    this(
        client,
        caches,
        metrics,
        events,
        status,
        strategies,
        fieldManager,
        ticker,
        rateLimit,
        rejected,
        access,
        Optional.empty());
  }
}
