package dev.converge.owner;

import dev.converge.retry.internal.ResourceText;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.Map;
import java.util.Objects;

/**
 * The metadata of an object a primary asks for: named after the primary (or as given), in the
 * primary's namespace, with the given labels. It carries no owner reference: {@code Context.apply}
 * sets the controller reference to the primary when it writes the object.
 *
 * <pre>{@code
 * new ServiceBuilder()
 *     .withMetadata(DependentMetadata.of(app, labels))
 *     .withNewSpec()...
 * }</pre>
 */
public final class DependentMetadata {

  private DependentMetadata() {}

  /**
   * Metadata with the primary's name and namespace and {@code labels}, for the one dependent of a
   * kind a primary has.
   *
   * @param primary the object the dependent is for
   * @param labels the dependent's labels; null or empty for none
   * @return new metadata, without owner references
   */
  public static ObjectMeta of(HasMetadata primary, Map<String, String> labels) {
    return of(primary, primary.getMetadata().getName(), labels);
  }

  /**
   * Metadata with {@code name}, the primary's namespace (none when the primary is cluster-scoped)
   * and {@code labels}.
   *
   * @param primary the object the dependent is for
   * @param name the dependent's name
   * @param labels the dependent's labels; null or empty for none
   * @return new metadata, without owner references
   * @throws IllegalArgumentException when {@code name} is null or blank
   */
  public static ObjectMeta of(HasMetadata primary, String name, Map<String, String> labels) {
    Objects.requireNonNull(primary, "primary");
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(
          "a dependent of " + ResourceText.describe(primary) + " needs a name");
    }
    return new ObjectMetaBuilder()
        .withName(name)
        .withNamespace(primary.getMetadata().getNamespace())
        .withLabels(labels == null || labels.isEmpty() ? null : labels)
        .build();
  }
}
