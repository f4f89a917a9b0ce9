package dev.converge.owner;

import io.fabric8.kubernetes.api.model.OwnerReference;

/**
 * The dependent already has a controller reference to a different object. An object has at most one
 * controller; taking it over silently would make two controllers fight over it.
 */
public final class AlreadyControlledException extends OwnerReferenceException {

  private final transient OwnerReference existingController;

  AlreadyControlledException(String message, OwnerReference existingController) {
    super(message);
    this.existingController = existingController;
  }

  /**
   * The controller reference that is already on the dependent, so that a caller can tell whose the
   * object is.
   *
   * @return the existing controller reference
   */
  public OwnerReference existingController() {
    return existingController;
  }
}
