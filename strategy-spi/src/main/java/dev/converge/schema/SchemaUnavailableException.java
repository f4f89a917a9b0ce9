package dev.converge.schema;

/**
 * The API server's schema of a group-version could not be read (a network error, a server error).
 * Strategies let it fail the reconcile, which is retried with backoff: deciding without the schema
 * could report an unchanged object that is not.
 */
public final class SchemaUnavailableException extends RuntimeException {

  /**
   * A failure to read a schema.
   *
   * @param message what was read, from where, and why it failed
   * @param cause the client's failure
   */
  public SchemaUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
