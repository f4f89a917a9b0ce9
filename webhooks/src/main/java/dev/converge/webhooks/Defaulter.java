package dev.converge.webhooks;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Sets fields of an object before it is validated and stored: change {@code object} in place; the
 * server computes the JSON patch from the object before and after. Only fields the Java type knows
 * can be changed, and fields it does not know are never touched.
 */
@FunctionalInterface
public interface Defaulter<T extends HasMetadata> {

  /**
   * Sets the defaults on {@code object}, in place.
   *
   * @param object the object to be stored, to change
   * @param admission the whole request (operation, the stored object on an update, dry run)
   */
  void setDefaults(T object, Admission<T> admission);
}
