package dev.converge.reconcile;

import dev.converge.strategy.ResourceWriteException;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A request the API server refused for what it asked, not for when it asked: sending it again
 * unchanged gets the same answer. Such a failure ends a reconcile as a terminal failure of the
 * primary's generation instead of a retry with backoff; see {@link #of(Throwable)} for what counts.
 *
 * <p>The runtime recognises refusals by itself: a reconciler that lets the exception escape gets a
 * {@value #CONDITION_TYPE}={@code False} condition on its primary with {@link Reason#condition()}
 * as reason, one Warning Event, the {@code converge.reconcile.refused} counter and no retry until
 * the primary or something it watches changes. A reconciler that wants to decide for itself (report
 * the refusal in its own status, or write something else instead) catches the exception and asks
 * {@code Refusal.of(e)}.
 *
 * <p>Not refusals, because waiting can change the answer: 409 Conflict and AlreadyExists, 429 Too
 * Many Requests, 5xx, network failures, a 403 for a ResourceQuota whose usage is not computed yet,
 * and 403s of RBAC ({@code cannot <verb> resource ...}, and an owner reference's {@code
 * blockOwnerDeletion} without access to the owner's finalizers), which the operator reports as
 * missing permissions until they are granted.
 *
 * @param reason what kind of refusal
 * @param code the HTTP status code
 * @param resource the refused object as {@code Kind namespace/name} when known (a strategy's {@link
 *     ResourceWriteException}), else as the API server named it in its answer
 * @param fields the field paths the server blamed, e.g. {@code spec.selector}; may be empty
 * @param message one line for humans: the object, the request when known, the fields and the
 *     server's own words
 */
public record Refusal(
    Reason reason, int code, String resource, List<String> fields, String message) {

  /**
   * The type of the condition the runtime writes on a primary whose reconcile ended in a refusal or
   * a {@link Result#permanentFailure permanent failure}: status {@code False}, the reason of the
   * failure, the server's message, the primary's generation as {@code observedGeneration}. The
   * runtime removes it on the next reconcile that ends without failure. The type belongs to the
   * runtime: a reconciler should not write a condition of this type itself.
   */
  public static final String CONDITION_TYPE = "Reconciled";

  /** What the API server refused, with the condition reason and metric tag of each. */
  public enum Reason {
    /** 422 Unprocessable Entity: invalid or immutable fields, an invalid name. */
    INVALID("Invalid", "invalid"),
    /** A validating or mutating admission webhook denied the request (any 4xx code). */
    ADMISSION_DENIED("AdmissionDenied", "admission-denied"),
    /** 403: a ResourceQuota of the namespace would be exceeded. */
    QUOTA_EXCEEDED("QuotaExceeded", "quota-exceeded"),
    /** 403: the namespace is being deleted; nothing new may be created in it. */
    NAMESPACE_TERMINATING("NamespaceTerminating", "namespace-terminating"),
    /** 403: the pod violates the namespace's Pod Security level. */
    POD_SECURITY("PodSecurityViolation", "pod-security"),
    /** 403 from another admission plugin (LimitRanger, a policy, ...): not a missing permission. */
    FORBIDDEN("AdmissionForbidden", "forbidden");

    private final String condition;
    private final String tag;

    Reason(String condition, String tag) {
      this.condition = condition;
      this.tag = tag;
    }

    /**
     * The reason of the condition and the Event.
     *
     * @return an UpperCamelCase word, e.g. {@code QuotaExceeded}
     */
    public String condition() {
      return condition;
    }

    /**
     * The value of the metric tag {@code reason}.
     *
     * @return a lower-case word or words, e.g. {@code quota-exceeded}
     */
    public String tag() {
      return tag;
    }
  }

  /**
   * Checks the refusal and copies its fields, so that a refusal never changes once made.
   *
   * @param reason what kind of refusal
   * @param code the HTTP status code
   * @param resource the refused object as {@code Kind namespace/name}, or as the server named it
   * @param fields the field paths the server blamed; may be empty
   * @param message one line for humans
   * @throws NullPointerException when {@code reason}, {@code resource}, {@code fields} or {@code
   *     message} is null, or {@code fields} holds a null
   */
  public Refusal {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(resource, "resource");
    fields = List.copyOf(fields);
    Objects.requireNonNull(message, "message");
  }

  /**
   * The kind of the refused object, for grouping refusals by kind.
   *
   * @return the first word of {@link #resource()}: the kind ({@code StatefulSet}), or the resource
   *     the server named
   */
  public String kind() {
    int space = resource.indexOf(' ');
    return space < 0 ? resource : resource.substring(0, space);
  }

  /**
   * The refusal in {@code failure} or anywhere in its causes, if there is one: a {@link
   * KubernetesClientException} (as thrown by the client, or as the cause of a strategy's {@link
   * ResourceWriteException}) with
   *
   * <ul>
   *   <li>422, or any 4xx whose message says an admission webhook denied the request;
   *   <li>403 that is not an RBAC denial: ResourceQuota exceeded, namespace terminating, Pod
   *       Security, or another admission plugin.
   * </ul>
   *
   * Everything else (409, 429, 5xx, no answer, RBAC 403s, and exceptions without an HTTP answer) is
   * empty.
   *
   * @param failure what a reconcile or a write threw; may be null
   * @return the refusal, or empty when waiting could change the answer
   */
  public static Optional<Refusal> of(Throwable failure) {
    ResourceWriteException write = null;
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ResourceWriteException rwe && write == null) {
        write = rwe;
      }
      if (t instanceof KubernetesClientException kce) {
        return classify(kce, write);
      }
    }
    return Optional.empty();
  }

  private static Optional<Refusal> classify(
      KubernetesClientException e, ResourceWriteException write) {
    int code = e.getCode();
    Status status = e.getStatus();
    String serverMessage =
        status != null && status.getMessage() != null
            ? status.getMessage()
            : Objects.toString(e.getMessage(), "");
    Reason reason = reasonOf(code, status, serverMessage);
    if (reason == null) {
      return Optional.empty();
    }
    String resource;
    List<String> fields;
    String message;
    if (write != null) {
      resource = write.resource();
      fields = write.fields();
      message = write.getMessage();
    } else {
      StatusDetails details = status == null ? null : status.getDetails();
      resource =
          details == null || details.getKind() == null
              ? "(unknown)"
              : details.getKind() + (details.getName() == null ? "" : " " + details.getName());
      fields =
          details == null || details.getCauses() == null
              ? List.of()
              : details.getCauses().stream()
                  .map(StatusCause::getField)
                  .filter(f -> f != null && !f.isBlank())
                  .distinct()
                  .toList();
      message = "HTTP " + code + ": " + serverMessage;
    }
    return Optional.of(new Refusal(reason, code, resource, fields, firstLines(message)));
  }

  private static Reason reasonOf(int code, Status status, String message) {
    String text = message.toLowerCase(Locale.ROOT);
    if (code >= 400
        && code < 500
        && code != 409
        && code != 429
        && text.contains("admission webhook")
        && text.contains("denied the request")) {
      return Reason.ADMISSION_DENIED;
    }
    if (code == 422) {
      return Reason.INVALID;
    }
    if (code != 403 || isRbacDenial(message) || text.contains("status unknown for quota")) {
      // The last: a quota whose usage the controller manager has not computed yet, which it
      // does within moments.
      return null;
    }
    if (text.contains("exceeded quota") || text.contains("failed quota")) {
      return Reason.QUOTA_EXCEEDED;
    }
    if (text.contains("because it is being terminated")
        || causeType(status, "NamespaceTerminating")) {
      return Reason.NAMESPACE_TERMINATING;
    }
    if (text.contains("violates podsecurity")) {
      return Reason.POD_SECURITY;
    }
    return Reason.FORBIDDEN;
  }

  /**
   * True for a 403 message of RBAC: the authorizer's {@code cannot <verb> resource "..."}, or the
   * OwnerReferencesPermissionEnforcement plugin's {@code blockOwnerDeletion} refusal (a missing
   * {@code update} of the owner's finalizers).
   */
  static boolean isRbacDenial(String message) {
    return message.matches("(?s).*\\bcannot \\S+ resource \".*")
        || message.contains("blockOwnerDeletion");
  }

  private static boolean causeType(Status status, String type) {
    return status != null
        && status.getDetails() != null
        && status.getDetails().getCauses() != null
        && status.getDetails().getCauses().stream().anyMatch(c -> type.equals(c.getReason()));
  }

  /** At most a few lines and a bounded length: a message goes into an Event and a condition. */
  private static String firstLines(String text) {
    String flat = text.replace('\n', ' ').strip();
    return flat.length() > 2000 ? flat.substring(0, 2000) + "..." : flat;
  }
}
