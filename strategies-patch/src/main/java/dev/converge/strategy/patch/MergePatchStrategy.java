package dev.converge.strategy.patch;

import dev.converge.schema.ApiKind;
import dev.converge.schema.ResourceTree;
import dev.converge.schema.SchemaNode;
import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.ResourceWriteException;
import dev.converge.strategy.StrategyContext;
import dev.converge.strategy.tree.AppliedFieldsRecord;
import dev.converge.strategy.tree.DesiredState;
import dev.converge.strategy.tree.ManagedFields;
import dev.converge.strategy.tree.MergedTarget;
import dev.converge.strategy.tree.ServerDefaults;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.json.JsonMapper;

/**
 * Three-way JSON merge patch. The fields this controller applied are remembered in the annotation
 * {@value #APPLIED_FIELDS_ANNOTATION} (paths only, never values, so Secret data does not leak into
 * metadata; bounded in size); each apply merges desired into live by the kind's schema, removes
 * what the record says this controller set and desired no longer does, and sends one {@code
 * application/merge-patch+json} PATCH of the difference — or nothing at all when the server would
 * store the same object. Fields set by anyone else are never mentioned, so they survive.
 *
 * <p>Limit of the method: a JSON merge patch cannot address list elements, so a list that changes
 * is sent whole — as merged from live, so other writers' elements of map and set lists are kept,
 * but one added between the read and the write is lost (the patch carries no resourceVersion).
 */
public final class MergePatchStrategy implements ResourceStrategy {

  /** The strategy, as ServiceLoader makes it. */
  public MergePatchStrategy() {}

  /** The configuration name. */
  public static final String NAME = "merge-patch";

  /** Annotation holding the record of the fields last applied. */
  public static final String APPLIED_FIELDS_ANNOTATION = AppliedFieldsRecord.ANNOTATION;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** POST to create, a JSON merge patch to change. */
  @Override
  public Set<String> verbs() {
    return Set.of("create", "patch");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <R extends HasMetadata> ApplyResult<R> apply(R desired, StrategyContext context) {
    Map<String, Object> wanted = DesiredState.of(desired);
    SchemaNode schema = context.schemas().forKind(ApiKind.of(desired));
    Optional<R> current = context.current(desired);
    if (current.isEmpty()) {
      Map<String, Object> body = ResourceTree.copyMap(wanted);
      ResourceTree.mapAtOrCreate(body, "metadata", "annotations")
          .put(APPLIED_FIELDS_ANNOTATION, MergedTarget.recordOf(schema, wanted));
      R object = ResourceTree.toResource(body, (Class<R>) desired.getClass());
      try {
        return new ApplyResult<>(
            ApplyOutcome.CREATED, context.client().resource(object).create(), "POST");
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw ResourceWriteException.of(desired, "POST", e);
        }
        current = Optional.ofNullable(context.client().resource(desired).get());
        if (current.isEmpty()) {
          throw ResourceWriteException.of(desired, "POST", e);
        }
      }
    }
    R live = current.get();
    Map<String, Object> liveTree = ResourceTree.of(live);
    MergedTarget merged =
        MergedTarget.of(
            schema,
            liveTree,
            wanted,
            true,
            ManagedFields.ownManagers(context),
            o -> {},
            ResourceWriteException.describe(desired));
    if (!merged.unchanged()) {
      // Values written whole may hold what the server filled in: compare as the server stores
      // desired.
      Map<String, Object> filled =
          ServerDefaults.fillAtomicValues(schema, liveTree, wanted, desired.getClass(), context);
      if (filled != wanted) {
        merged =
            MergedTarget.of(
                schema,
                liveTree,
                filled,
                true,
                ManagedFields.ownManagers(context),
                o -> {},
                ResourceWriteException.describe(desired));
      }
    }
    if (merged.unchanged()) {
      return ApplyResult.unchanged(live);
    }
    String body = JSON.writeValueAsString(merged.patch());
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

  private static String redact(HasMetadata desired, String body) {
    return "Secret".equals(desired.getKind()) ? "(Secret body not logged)" : body;
  }
}
