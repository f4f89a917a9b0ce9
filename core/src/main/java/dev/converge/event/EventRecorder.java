package dev.converge.event;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Set;

/**
 * Records core/v1 Events about an object, the way {@code kubectl describe} shows them.
 *
 * <p>Recording never throws into the reconcile and never makes it wait: the recorder from {@link
 * #builder} files the Event in a bounded queue and a background thread writes it. A failure to
 * write an Event is logged and dropped, since an Event is a courtesy to humans and must not turn a
 * successful reconcile into a failed one. Repeats of the same (object, type, reason, message) are
 * folded into one Event whose {@code count} and {@code lastTimestamp} go up, each object may cause
 * only so many writes (a token bucket per object), and a full queue drops new Events, counted in a
 * metric, rather than flooding the namespace or the API server.
 */
public interface EventRecorder extends AutoCloseable {

  /**
   * Records an Event about {@code involved}. Returns at once; the Event is written later, or
   * dropped (see above), and nothing is thrown for a bad argument either: it is logged.
   *
   * @param involved the object the Event is about; {@code kubectl describe} of it shows the Event
   * @param type whether it is a normal occurrence or a warning
   * @param reason why, as one UpperCamelCase word such as {@code ScalingReplicaSet}; cut to 128
   *     characters
   * @param message what happened, for a human; cut to 1024 characters
   */
  void record(HasMetadata involved, EventType type, String reason, String message);

  /**
   * Writes what is still waiting, for a few seconds at most, then stops taking Events; the operator
   * calls it on the recorder it built when it stops.
   */
  @Override
  default void close() {}

  /**
   * Records a {@link EventType#NORMAL} Event: something worth knowing that needs no action.
   *
   * @param involved the object the Event is about
   * @param reason why, as one UpperCamelCase word
   * @param message what happened, for a human
   */
  default void normal(HasMetadata involved, String reason, String message) {
    record(involved, EventType.NORMAL, reason, message);
  }

  /**
   * Records a {@link EventType#WARNING} Event: something a human may have to act on.
   *
   * @param involved the object the Event is about
   * @param reason why, as one UpperCamelCase word
   * @param message what happened and, where known, what to do about it
   */
  default void warning(HasMetadata involved, String reason, String message) {
    record(involved, EventType.WARNING, reason, message);
  }

  /**
   * The RBAC verbs this recorder needs on core/v1 Events, for the operator's generated role:
   * create, and patch to fold repeats into a count. A recorder that writes nothing returns none.
   *
   * @return the verbs on {@code events} in the core API group
   */
  default Set<String> verbs() {
    return Set.of("create", "patch");
  }

  /**
   * Starts a recorder that writes Events with {@code client}.
   *
   * @param client the client the background thread writes with
   * @return a builder to set the component and the limits on
   */
  static EventRecorderBuilder builder(KubernetesClient client) {
    return new EventRecorderBuilder(client);
  }

  /**
   * A recorder that discards everything; for tests and for running without Events.
   *
   * @return a recorder that writes nothing and needs no RBAC verbs
   */
  static EventRecorder discarding() {
    return new EventRecorder() {
      @Override
      public void record(HasMetadata involved, EventType type, String reason, String message) {}

      @Override
      public Set<String> verbs() {
        return Set.of();
      }
    };
  }
}
