package dev.converge.it;

import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategyContext;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A deliberately small strategy for ConfigMaps, so that core's tests need none of the strategy
 * modules (which depend on core): create when absent, update data/labels/owners when they differ,
 * else nothing. Reads through the context, i.e. from the runtime's caches.
 */
public final class ConfigMapTestStrategy implements ResourceStrategy {

  @Override
  public String name() {
    return "configmap-test";
  }

  @Override
  @SuppressWarnings("unchecked")
  public <R extends HasMetadata> ApplyResult<R> apply(R desired, StrategyContext context) {
    if (!(desired instanceof ConfigMap wanted)) {
      throw new IllegalArgumentException(
          "test strategy handles ConfigMaps only, got " + desired.getKind());
    }
    Optional<ConfigMap> live = context.current(wanted);
    if (live.isEmpty()) {
      ConfigMap created = context.client().resource(wanted).create();
      return (ApplyResult<R>) new ApplyResult<>(ApplyOutcome.CREATED, created, "POST");
    }
    ConfigMap current = live.get();
    boolean same =
        Objects.equals(orEmpty(current.getData()), orEmpty(wanted.getData()))
            && Objects.equals(
                orEmpty(current.getMetadata().getLabels()),
                orEmpty(wanted.getMetadata().getLabels()))
            && Objects.equals(
                current.getMetadata().getOwnerReferences(),
                wanted.getMetadata().getOwnerReferences());
    if (same) {
      return (ApplyResult<R>) ApplyResult.unchanged(current);
    }
    ConfigMap update =
        new io.fabric8.kubernetes.api.model.ConfigMapBuilder(current)
            .withData(wanted.getData())
            .editMetadata()
            .withLabels(wanted.getMetadata().getLabels())
            .withOwnerReferences(wanted.getMetadata().getOwnerReferences())
            .endMetadata()
            .build();
    ConfigMap updated = context.client().resource(update).update();
    return (ApplyResult<R>) new ApplyResult<>(ApplyOutcome.UPDATED, updated, "PUT");
  }

  private static Map<String, String> orEmpty(Map<String, String> map) {
    return map == null ? Map.of() : map;
  }
}
