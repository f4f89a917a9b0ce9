package dev.converge.owner;

/**
 * The owner cannot own the dependent: it has not been stored yet (no uid), lacks apiVersion or
 * kind, or the scopes do not allow it (a namespaced owner for an object in another namespace or for
 * a cluster-scoped object).
 */
public final class InvalidOwnerException extends OwnerReferenceException {

  /**
   * Reports an owner that cannot own the dependent.
   *
   * @param message names both objects, what is wrong and the fix
   */
  public InvalidOwnerException(String message) {
    super(message);
  }
}
