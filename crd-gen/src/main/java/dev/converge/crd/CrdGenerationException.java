package dev.converge.crd;

/**
 * A Java type cannot become a Kubernetes CustomResourceDefinition. The message names the class or
 * the Java member, the JSON path in the resource, the reason and the fix.
 */
public class CrdGenerationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * A failure found by the generator itself.
   *
   * @param message names the class or member, the JSON path, the reason and the fix
   */
  public CrdGenerationException(String message) {
    super(message);
  }

  /**
   * A failure reported by the schema generator or the API server underneath.
   *
   * @param message names the class or member, the JSON path, the reason and the fix
   * @param cause what failed underneath
   */
  public CrdGenerationException(String message, Throwable cause) {
    super(message, cause);
  }
}
