package dev.converge.source;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * Computes the index keys of one object, e.g. "the ConfigMaps an AppDeployment references" as
 * {@code namespace/configMapName}. Keys are plain strings; include the namespace when the index
 * spans namespaces. Must be fast and free of side effects: it runs on the informer thread for every
 * change of every object of the kind.
 *
 * @param <R> the kind
 */
@FunctionalInterface
public interface IndexFunction<R extends HasMetadata> {

  /**
   * The keys under which {@code resource} is found.
   *
   * @param resource one object of the kind, as the informer holds it; do not change it
   * @return the keys, empty for none; never null
   */
  List<String> keys(R resource);
}
