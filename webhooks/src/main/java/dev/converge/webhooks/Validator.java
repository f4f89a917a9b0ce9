package dev.converge.webhooks;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Checks what a CRD's schema and CEL rules cannot: a reference to another object, a value that
 * depends on the cluster, a grammar. Called by the API server before an object is stored.
 *
 * <p>An exception thrown here denies the request with the exception's message (never a hung
 * request); so does taking longer than the webhook's timeout.
 */
@FunctionalInterface
public interface Validator<T extends HasMetadata> {

  /**
   * Judges one request.
   *
   * @param admission the request, with the object as it would be stored
   * @return whether the request is allowed, and why not
   */
  Verdict validate(Admission<T> admission);
}
