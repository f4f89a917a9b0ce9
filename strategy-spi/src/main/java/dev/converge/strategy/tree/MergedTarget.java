package dev.converge.strategy.tree;

import dev.converge.schema.Comparison;
import dev.converge.schema.FieldSet;
import dev.converge.schema.Merge;
import dev.converge.schema.MergePatch;
import dev.converge.schema.ResourceTree;
import dev.converge.schema.SchemaNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a strategy that sends whole objects or merge patches writes: live with desired merged in by
 * the kind's schema, minus what this controller wrote last time and no longer wants (read from
 * {@link AppliedFieldsRecord}), plus the updated record; and the merge patch from live to it, empty
 * when the write would change nothing.
 *
 * @param object the object to write (a new tree)
 * @param patch the JSON merge patch from live to {@code object}; empty means "send nothing"
 * @param removed the paths removed from live, for logs
 */
public record MergedTarget(
    Map<String, Object> object, Map<String, Object> patch, List<String> removed) {

  private static final Logger log = LoggerFactory.getLogger(MergedTarget.class);

  /**
   * Whether nothing needs to be written.
   *
   * @return true when the patch is empty: the strategy sends no request
   */
  public boolean unchanged() {
    return patch.isEmpty();
  }

  /**
   * Merges {@code desired} into {@code live}. In the steady state (the record unchanged and live
   * holding desired) no merged object is built and live itself is returned as {@link #object()}. A
   * record that cannot be read is logged as a warning and replaced; nothing is removed that time.
   *
   * @param schema the schema of the kind, from {@link dev.converge.schema.ResourceSchemas}
   * @param live the live object's tree; not changed
   * @param desired desired's tree ({@link DesiredState}); not changed
   * @param record whether to read and keep the applied-fields record (off, nothing is removed)
   * @param ownManagers the managedFields names this controller writes under; fields any other
   *     manager holds are never removed
   * @param adjust last changes to the merged object before it is compared (server-assigned fields)
   * @param resource {@code kind namespace/name}, for logs
   * @return the object to write, the patch from live to it and the paths removed
   */
  public static MergedTarget of(
      SchemaNode schema,
      Map<String, Object> live,
      Map<String, Object> desired,
      boolean record,
      Set<String> ownManagers,
      Consumer<Map<String, Object>> adjust,
      String resource) {
    FieldSet previous = FieldSet.empty();
    String previousText = null;
    if (record) {
      previousText =
          ResourceTree.mapAt(live, "metadata", "annotations")
              .map(a -> a.get(AppliedFieldsRecord.ANNOTATION))
              .map(String::valueOf)
              .orElse(null);
      try {
        previous = AppliedFieldsRecord.decode(previousText);
      } catch (IllegalArgumentException e) {
        log.warn(
            "{}: annotation {} is not a field record ({}); removing nothing this time and writing a new one",
            resource,
            AppliedFieldsRecord.ANNOTATION,
            e.getMessage());
      }
    }
    FieldSet fields = record ? FieldSet.of(schema, desired) : FieldSet.empty();
    if (previousText != null
        && fields.equals(previous)
        && Comparison.holds(schema, live, desired)) {
      // Nothing recorded is missing from desired, so nothing is to be removed, and live holds the
      // rest: the steady state, decided without building the merged object.
      return new MergedTarget(live, Map.of(), List.of());
    }
    FieldSet others = ManagedFields.ownedByOthers(live, ownManagers);
    Merge.Result merged = Merge.apply(schema, live, desired, previous, others);
    Map<String, Object> object = merged.object();
    if (record) {
      String text =
          fields.equals(previous) && previousText != null
              ? previousText
              : AppliedFieldsRecord.encode(fields);
      if (!text.equals(previousText)) {
        Map<String, Object> metadata = ResourceTree.mapAtOrCreate(object, "metadata");
        Map<String, Object> annotations = ResourceTree.mapAtOrCreate(metadata, "annotations");
        // A fresh map: the merged metadata may share the live tree's annotations map.
        Map<String, Object> copy = new java.util.LinkedHashMap<>(annotations);
        copy.put(AppliedFieldsRecord.ANNOTATION, text);
        metadata.put("annotations", copy);
      }
    }
    adjust.accept(object);
    Map<String, Object> patch = MergePatch.between(schema, live, object);
    return new MergedTarget(object, patch, merged.removed());
  }

  /**
   * The record annotation of a new object built from {@code desired}, for a strategy that creates
   * the object and must record from the first write what it set.
   *
   * @param schema the schema of the kind, from {@link dev.converge.schema.ResourceSchemas}
   * @param desired desired's tree ({@link DesiredState})
   * @return the value of {@link AppliedFieldsRecord#ANNOTATION}
   */
  public static String recordOf(SchemaNode schema, Map<String, Object> desired) {
    return AppliedFieldsRecord.encode(FieldSet.of(schema, desired));
  }
}
