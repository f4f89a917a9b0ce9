package dev.converge.testing.conformance.internal;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * One kind the kit runs every scenario on, with what the scenarios need to know about it.
 *
 * @param label the name in reports, e.g. {@code Service (NodePort)}
 * @param shortName used in object names
 * @param factory builds the desired object for a namespace, a name and a variant
 * @param changedPath the path {@link Variant#CHANGED} changes
 * @param driftPatch a JSON merge patch another actor sends to change owned fields
 * @param foreignPatch a JSON merge patch another actor sends to add fields nobody else owns
 * @param foreignPaths paths the foreign patch sets, which must survive
 * @param removablePaths paths {@link Variant#WITHOUT_REMOVABLE} drops
 * @param immutableField text the error of the immutable change must contain
 * @param service whether the allocations scenario applies
 */
public record Subject(
    String label,
    String shortName,
    Factory factory,
    String changedPath,
    String driftPatch,
    String foreignPatch,
    List<String> foreignPaths,
    List<String> removablePaths,
    String immutableField,
    boolean service) {

  /** Builds desired objects. */
  @FunctionalInterface
  public interface Factory {
    HasMetadata desired(String namespace, String name, Variant variant);
  }

  public HasMetadata desired(String namespace, String name, Variant variant) {
    return factory.desired(namespace, name, variant);
  }
}
