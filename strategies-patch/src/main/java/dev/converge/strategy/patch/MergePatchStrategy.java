package dev.converge.strategy.patch;

import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.ResourceWriteException;
import dev.converge.strategy.StrategyContext;
import dev.converge.strategy.patch.internal.ThreeWayMergePatch;
import dev.converge.strategy.tree.DesiredState;
import dev.converge.strategy.tree.ResourceTree;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Three-way JSON merge patch. The fields this controller applied are remembered in the annotation
 * {@value #APPLIED_FIELDS_ANNOTATION} (keys only, never values, so Secret data does not leak into
 * metadata); each apply compares that record, the desired object and live, and sends one {@code
 * application/merge-patch+json} PATCH holding the desired values live lacks and {@code null} for
 * fields dropped from desired — or nothing at all when live already matches. Fields set by anyone
 * else are never mentioned, so they survive.
 *
 * <p>Limits: lists are atomic (JSON merge patch replaces a list whole), so an element another actor
 * appended to a list this controller sets is removed on the next change of that list. The first
 * apply to an object this strategy did not create has no record yet, so it removes nothing.
 */
public final class MergePatchStrategy implements ResourceStrategy {

  /** The configuration name. */
  public static final String NAME = "merge-patch";

  /** Annotation holding the key skeleton of the last applied desired object. */
  public static final String APPLIED_FIELDS_ANNOTATION = "converge.dev/applied-fields";

  private static final Logger log = LoggerFactory.getLogger(MergePatchStrategy.class);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <R extends HasMetadata> ApplyResult<R> apply(R desired, StrategyContext context) {
    Map<String, Object> wanted = DesiredState.of(desired);
    String record = ResourceTree.canonicalJson(ThreeWayMergePatch.fieldsOf(wanted));
    Optional<R> current = context.current(desired);
    if (current.isEmpty()) {
      Map<String, Object> body = ResourceTree.copyMap(wanted);
      ResourceTree.mapAtOrCreate(body, "metadata", "annotations").put(APPLIED_FIELDS_ANNOTATION, record);
      R object = ResourceTree.toResource(body, (Class<R>) desired.getClass());
      try {
        return new ApplyResult<>(ApplyOutcome.CREATED, context.client().resource(object).create(), "POST");
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw ResourceWriteException.of(desired, "POST", e);
        }
        current = Optional.ofNullable((R) context.client().resource(desired).get());
        if (current.isEmpty()) {
          throw ResourceWriteException.of(desired, "POST", e);
        }
      }
    }
    R live = current.get();
    Map<String, Object> liveTree = ResourceTree.of(live);
    Map<String, String> annotations = live.getMetadata().getAnnotations();
    String previous = annotations == null ? null : annotations.get(APPLIED_FIELDS_ANNOTATION);
    Map<String, Object> patch = ThreeWayMergePatch.diff(lastFields(previous, desired), wanted, liveTree);
    if (!record.equals(previous)) {
      ResourceTree.mapAtOrCreate(patch, "metadata", "annotations").put(APPLIED_FIELDS_ANNOTATION, record);
    }
    if (patch.isEmpty()) {
      return ApplyResult.unchanged(live);
    }
    String body = JSON.writeValueAsString(patch);
    String request = "PATCH application/merge-patch+json " + redact(desired, body);
    PatchContext patchContext = PatchContext.of(PatchType.JSON_MERGE);
    patchContext.setFieldManager(context.fieldManager());
    try {
      R patched = context.client().resource(live).patch(patchContext, body);
      return new ApplyResult<>(ApplyOutcome.UPDATED, patched, request);
    } catch (KubernetesClientException e) {
      throw ResourceWriteException.of(desired, request, e);
    }
  }

  private static Map<String, Object> lastFields(String annotation, HasMetadata desired) {
    if (annotation == null || annotation.isBlank()) {
      return Map.of();
    }
    try {
      return ResourceTree.parse(annotation);
    } catch (JacksonException e) {
      log.warn("{}: annotation {} is not valid JSON ({}); removing nothing this time",
          ResourceWriteException.describe(desired), APPLIED_FIELDS_ANNOTATION, e.getOriginalMessage());
      return Map.of();
    }
  }

  private static String redact(HasMetadata desired, String body) {
    return "Secret".equals(desired.getKind()) ? "(Secret body not logged)" : body;
  }
}
