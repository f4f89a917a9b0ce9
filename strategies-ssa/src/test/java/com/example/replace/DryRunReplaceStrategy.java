package com.example.replace;

import dev.converge.schema.ResourceTree;
import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.ResourceWriteException;
import dev.converge.strategy.StrategyContext;
import dev.converge.strategy.tree.DesiredState;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A strategy written outside the framework, to prove the extension path (ServiceLoader + selection
 * by configuration + the conformance kit). It replaces the whole object with desired — keeping only
 * labels and annotations it did not set — and decides whether anything would change by asking the
 * server for a dry run of the PUT and comparing the answer with live, so the server's own
 * defaulting does the normalising.
 *
 * <p>Costs one dry-run request per apply; fields another actor set outside metadata are
 * overwritten.
 */
public final class DryRunReplaceStrategy implements ResourceStrategy {

  public static final String NAME = "dry-run-replace";
  private static final int ATTEMPTS = 10;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <R extends HasMetadata> ApplyResult<R> apply(R desired, StrategyContext context) {
    Optional<R> current = context.current(desired);
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (current.isEmpty()) {
        try {
          return new ApplyResult<>(
              ApplyOutcome.CREATED, context.client().resource(desired).create(), "POST");
        } catch (KubernetesClientException e) {
          throw ResourceWriteException.of(desired, "POST", e);
        }
      }
      R live = current.get();
      Map<String, Object> outgoing = DesiredState.of(desired);
      Map<String, Object> meta = ResourceTree.mapAtOrCreate(outgoing, "metadata");
      for (String key : List.of("labels", "annotations")) {
        ResourceTree.mapAt(ResourceTree.of(live), "metadata", key)
            .ifPresent(
                liveMap -> {
                  Map<String, Object> merged = ResourceTree.copyMap(liveMap);
                  ResourceTree.mapAt(outgoing, "metadata", key).ifPresent(merged::putAll);
                  meta.put(key, merged);
                });
      }
      meta.put("resourceVersion", live.getMetadata().getResourceVersion());
      R body = ResourceTree.toResource(outgoing, (Class<R>) desired.getClass());
      try {
        R wouldBe = context.client().resource(body).dryRun().update();
        if (comparable(wouldBe).equals(comparable(live))) {
          return ApplyResult.unchanged(live);
        }
        return new ApplyResult<>(
            ApplyOutcome.UPDATED, context.client().resource(body).update(), "PUT (after dry run)");
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw ResourceWriteException.of(desired, "PUT", e);
        }
        current = Optional.ofNullable(context.client().resource(desired).get());
      }
    }
    throw new ResourceWriteException(
        ResourceWriteException.describe(desired),
        409,
        List.of(),
        ResourceWriteException.describe(desired)
            + ": still conflicting after "
            + ATTEMPTS
            + " attempts",
        null);
  }

  private static String comparable(HasMetadata object) {
    Map<String, Object> tree = ResourceTree.of(object);
    Map<String, Object> meta = ResourceTree.mapAtOrCreate(tree, "metadata");
    meta.remove("resourceVersion");
    meta.remove("managedFields");
    tree.remove("status");
    return ResourceTree.canonicalJson(tree);
  }
}
