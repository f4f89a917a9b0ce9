package dev.converge.builder;

import dev.converge.source.IndexFunction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * A named secondary index on the informer cache of one kind.
 *
 * @param <R> the indexed kind
 */
public record IndexDefinition<R extends HasMetadata>(
    Class<R> type, String name, IndexFunction<R> function) {

  public IndexDefinition {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(function, "function");
    if (name.isBlank()) {
      throw new IllegalArgumentException("an index needs a name");
    }
  }
}
