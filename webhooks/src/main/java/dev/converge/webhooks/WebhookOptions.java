package dev.converge.webhooks;

import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How the API server calls one admission webhook. The defaults: {@code failurePolicy: Fail} (an
 * unchecked object is worse than a refused one), a 10 s timeout, CREATE and UPDATE, every namespace
 * and object.
 *
 * @param failurePolicy what the API server does when the webhook cannot answer
 * @param timeoutSeconds how long the API server waits (1 to 30); the handler gets a little less, so
 *     that a slow handler becomes a denial with a message rather than the server's timeout
 * @param operations the operations that call the webhook
 * @param namespaceSelector only objects in namespaces with these labels, when present
 * @param objectSelector only objects with these labels, when present
 */
public record WebhookOptions(
    FailurePolicy failurePolicy,
    int timeoutSeconds,
    Set<Operation> operations,
    Optional<LabelSelector> namespaceSelector,
    Optional<LabelSelector> objectSelector) {

  /**
   * Checks the options and copies the operations.
   *
   * @param failurePolicy what the API server does when the webhook cannot answer
   * @param timeoutSeconds how long the API server waits (1 to 30); the handler gets a little less,
   *     so that a slow handler becomes a denial with a message rather than the server's timeout
   * @param operations the operations that call the webhook
   * @param namespaceSelector only objects in namespaces with these labels, when present
   * @param objectSelector only objects with these labels, when present
   * @throws IllegalArgumentException when the timeout is outside 1 to 30 seconds or no operation is
   *     given
   */
  public WebhookOptions {
    Objects.requireNonNull(failurePolicy, "failurePolicy");
    if (timeoutSeconds < 1 || timeoutSeconds > 30) {
      throw new IllegalArgumentException(
          "timeoutSeconds must be between 1 and 30 (the API server's limits), not "
              + timeoutSeconds);
    }
    if (operations.isEmpty()) {
      throw new IllegalArgumentException("a webhook needs at least one operation");
    }
    operations = Set.copyOf(operations);
    Objects.requireNonNull(namespaceSelector, "namespaceSelector");
    Objects.requireNonNull(objectSelector, "objectSelector");
  }

  /** {@return the defaults: Fail, 10 s, CREATE and UPDATE, no selectors} */
  public static WebhookOptions defaults() {
    return new WebhookOptions(
        FailurePolicy.Fail,
        10,
        EnumSet.of(Operation.CREATE, Operation.UPDATE),
        Optional.empty(),
        Optional.empty());
  }

  /**
   * {@return these options with another failure policy}
   *
   * @param policy what the API server does when the webhook cannot answer
   */
  public WebhookOptions withFailurePolicy(FailurePolicy policy) {
    return new WebhookOptions(
        policy, timeoutSeconds, operations, namespaceSelector, objectSelector);
  }

  /**
   * {@return these options with another timeout}
   *
   * @param seconds how long the API server waits, 1 to 30
   */
  public WebhookOptions withTimeoutSeconds(int seconds) {
    return new WebhookOptions(
        failurePolicy, seconds, operations, namespaceSelector, objectSelector);
  }

  /**
   * {@return these options with other operations}
   *
   * @param first an operation that calls the webhook
   * @param more the other operations that call it
   */
  public WebhookOptions withOperations(Operation first, Operation... more) {
    return new WebhookOptions(
        failurePolicy, timeoutSeconds, EnumSet.of(first, more), namespaceSelector, objectSelector);
  }

  /**
   * {@return these options limited to objects in namespaces {@code selector} matches}
   *
   * @param selector the labels of the namespaces whose objects call the webhook
   */
  public WebhookOptions withNamespaceSelector(LabelSelector selector) {
    return new WebhookOptions(
        failurePolicy, timeoutSeconds, operations, Optional.of(selector), objectSelector);
  }

  /**
   * {@return these options limited to objects {@code selector} matches}
   *
   * @param selector the labels of the objects that call the webhook
   */
  public WebhookOptions withObjectSelector(LabelSelector selector) {

    return new WebhookOptions(
        failurePolicy, timeoutSeconds, operations, namespaceSelector, Optional.of(selector));
  }
}
