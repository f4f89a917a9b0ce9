package dev.converge.operator.internal;

import dev.converge.builder.ControllerBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Which cached children a reconcile leaves to be pruned: those {@code primary} controls (a
 * controller owner reference with its UID) that the reconcile did not want, that are not already
 * being deleted and that do not carry {@value ControllerBuilder#PRUNE_ANNOTATION}{@code : "false"}.
 */
final class PrunePlan {

  private PrunePlan() {}

  /**
   * The objects of {@code cached} to delete.
   *
   * @param primary the reconciled primary, with its UID
   * @param cached the cached objects of one owned kind; may hold others than the primary's
   * @param wanted what the reconcile applied or kept
   */
  static <R extends HasMetadata> List<R> select(
      HasMetadata primary, Collection<R> cached, Set<ChildKey> wanted) {
    String uid = primary.getMetadata().getUid();
    if (uid == null || uid.isEmpty()) {
      return List.of();
    }
    String namespace = primary.getMetadata().getNamespace();
    return cached.stream()
        .filter(child -> controlledBy(child, uid))
        .filter(child -> child.getMetadata().getDeletionTimestamp() == null)
        .filter(child -> !optedOut(child))
        .filter(child -> !wanted.contains(ChildKey.of(child, namespace)))
        .toList();
  }

  /** True when {@code child}'s controller owner reference names the UID {@code uid}. */
  static boolean controlledBy(HasMetadata child, String uid) {
    List<OwnerReference> refs = child.getMetadata().getOwnerReferences();
    return refs != null
        && refs.stream()
            .anyMatch(ref -> Boolean.TRUE.equals(ref.getController()) && uid.equals(ref.getUid()));
  }

  /** True when {@code child} carries the annotation that keeps it from pruning. */
  static boolean optedOut(HasMetadata child) {
    Map<String, String> annotations = child.getMetadata().getAnnotations();
    return annotations != null
        && "false"
            .equalsIgnoreCase(
                Objects.toString(annotations.get(ControllerBuilder.PRUNE_ANNOTATION), "").trim());
  }
}
