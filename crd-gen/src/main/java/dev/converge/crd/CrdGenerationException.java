package dev.converge.crd;

/**
 * A Java type cannot become a Kubernetes CustomResourceDefinition. The message names the class or
 * the Java member, the JSON path in the resource, the reason and the fix.
 */
public class CrdGenerationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CrdGenerationException(String message) {
    super(message);
  }

  public CrdGenerationException(String message, Throwable cause) {
    super(message, cause);
  }
}
