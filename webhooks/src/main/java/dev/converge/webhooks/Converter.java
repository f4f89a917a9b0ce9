package dev.converge.webhooks;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Maps a custom resource between two versions of its API, both ways, for the CRD's conversion
 * webhook. A round trip must lose nothing: what one version cannot hold goes into an annotation and
 * comes back from it.
 *
 * <p>Only {@code spec}, {@code status} and the labels and annotations of the result are used; the
 * rest of the metadata is taken from the object the API server sent, as it requires.
 */
public interface Converter<A extends HasMetadata, B extends HasMetadata> {

  /**
   * Maps an object of the first version to the second.
   *
   * @param from the object as the API server sent it
   * @return the object in the second version
   */
  B convert(A from);

  /**
   * Maps an object of the second version back to the first.
   *
   * @param from the object as the API server sent it
   * @return the object in the first version
   */
  A convertBack(B from);
}
