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

  /** Records an Event about {@code involved}. */
  void record(HasMetadata involved, EventType type, String reason, String message);

  /**
   * Writes what is still waiting, for a few seconds at most, then stops taking Events; the operator
   * calls it on the recorder it built when it stops.
   */
  @Override
  default void close() {}

  default void normal(HasMetadata involved, String reason, String message) {
    record(involved, EventType.NORMAL, reason, message);
  }

  default void warning(HasMetadata involved, String reason, String message) {
    record(involved, EventType.WARNING, reason, message);
  }

  /**
   * The RBAC verbs this recorder needs on core/v1 Events, for the operator's generated role:
   * create, and patch to fold repeats into a count. A recorder that writes nothing returns none.
   */
  default Set<String> verbs() {
    return Set.of("create", "patch");
  }

  /** Starts a recorder that writes Events with {@code client}. */
  static EventRecorderBuilder builder(KubernetesClient client) {
    return new EventRecorderBuilder(client);
  }

  /** A recorder that discards everything; for tests and for running without Events. */
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
