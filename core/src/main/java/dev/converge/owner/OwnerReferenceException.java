package dev.converge.owner;

/** An owner reference that Converge refuses to set; the message names both objects and the fix. */
public abstract sealed class OwnerReferenceException extends RuntimeException
    permits AlreadyControlledException, InvalidOwnerException {

  OwnerReferenceException(String message) {
    super(message);
  }
}
