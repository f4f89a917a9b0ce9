package dev.converge.builder;

import dev.converge.source.IndexFunction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * A named secondary index on the informer cache of one kind.
 *
 * @param <R> the indexed kind
 * @param type the indexed kind's class
 * @param name the index's name, which lookups in the cache name
 * @param function the keys each object is indexed under
 */
public record IndexDefinition<R extends HasMetadata>(
    Class<R> type, String name, IndexFunction<R> function) {

  /**
   * Checks the definition, so that a bad index fails while the controller is built.
   *
   * @param type the indexed kind's class
   * @param name the index's name
   * @param function the keys each object is indexed under
   * @throws NullPointerException when a component is null
   * @throws IllegalArgumentException when the name is blank
   */
  public IndexDefinition {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(function, "function");
    if (name.isBlank()) {
      throw new IllegalArgumentException("an index needs a name");
    }
  }
}
