package dev.converge.strategy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Optional;

/**
 * A write the API server refused, or a conflict that did not resolve within the retry budget. The
 * message names the resource ({@code Kind namespace/name}), the request, and each field the server
 * blamed, e.g. {@code spec.selector: field is immutable}.
 *
 * <p>Whether retrying can help is the runtime's ({@code dev.converge.reconcile.Refusal.of})'s
 * answer: a refusal (422, an admission denial, a quota) ends the reconcile without retry when it
 * escapes the reconciler; anything else is retried with backoff.
 */
public final class ResourceWriteException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The resource, as {@code Kind namespace/name}. */
  private final String resource;

  /** The HTTP status code, or 0 when no response was received. */
  private final int code;

  /** The field paths the server rejected. */
  private final List<String> fields;

  /**
   * A write failure; {@link #of} builds one from a client exception.
   *
   * @param resource the resource, as {@code Kind namespace/name} ({@link #describe})
   * @param code the HTTP status code, or 0 when no response was received
   * @param fields the field paths the server rejected; empty when it named none
   * @param message the whole message: the resource, the request, the fields and the server's words
   * @param cause the client's exception, or null
   */
  public ResourceWriteException(
      String resource, int code, List<String> fields, String message, Throwable cause) {
    super(message, cause);
    this.resource = resource;
    this.code = code;
    this.fields = List.copyOf(fields);
  }

  /**
   * Wraps a client exception from a write of {@code target}, listing the fields the server named.
   *
   * @param target the object the write was for
   * @param request what was sent, as in {@link ApplyResult#request()}
   * @param e the client's exception
   * @return an exception with the client's status code, naming the resource, the request, each
   *     field the server blamed and the server's message, with a hint when a field is immutable
   */
  public static ResourceWriteException of(
      HasMetadata target, String request, KubernetesClientException e) {
    String resource = describe(target);
    List<StatusCause> causes =
        Optional.ofNullable(e.getStatus())
            .map(Status::getDetails)
            .map(d -> d.getCauses() == null ? List.<StatusCause>of() : d.getCauses())
            .orElse(List.of());
    List<String> fields =
        causes.stream()
            .map(StatusCause::getField)
            .filter(f -> f != null && !f.isBlank())
            .distinct()
            .toList();
    String serverMessage =
        Optional.ofNullable(e.getStatus()).map(Status::getMessage).orElse(e.getMessage());
    StringBuilder message =
        new StringBuilder()
            .append(resource)
            .append(": ")
            .append(request)
            .append(" failed with HTTP ")
            .append(e.getCode());
    if (!causes.isEmpty()) {
      message.append("; rejected fields: ");
      message.append(
          String.join(
              "; ",
              causes.stream()
                  .map(c -> (c.getField() == null ? "" : c.getField() + ": ") + c.getMessage())
                  .toList()));
    }
    message.append(" (server said: ").append(serverMessage).append(")");
    if (e.getCode() == 422 && serverMessage != null && serverMessage.contains("immutable")) {
      message.append(
          ". The field cannot change on a live object: delete and recreate it,"
              + " or keep the old value in the desired object");
    }
    return new ResourceWriteException(resource, e.getCode(), fields, message.toString(), e);
  }

  /**
   * {@code Kind namespace/name} (or {@code Kind name} for cluster-scoped objects): how messages
   * name a resource.
   *
   * @param target an object with kind and name set
   * @return its description, such as {@code Deployment shop/web}
   */
  public static String describe(HasMetadata target) {
    String ns = target.getMetadata().getNamespace();
    return target.getKind() + " " + (ns == null ? "" : ns + "/") + target.getMetadata().getName();
  }

  /**
   * The resource, as {@code Kind namespace/name}.
   *
   * @return the resource the write was for
   */
  public String resource() {
    return resource;
  }

  /**
   * The HTTP status code, or 0 when no response was received.
   *
   * @return the status the API server answered the write with, such as 422
   */
  public int code() {
    return code;
  }

  /**
   * Field paths the server rejected, e.g. {@code spec.selector}; empty when it named none.
   *
   * @return the fields, each once, in the server's order; unmodifiable
   */
  public List<String> fields() {
    return fields;
  }
}
