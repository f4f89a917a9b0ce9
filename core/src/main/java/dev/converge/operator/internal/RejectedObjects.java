package dev.converge.operator.internal;

import dev.converge.event.EventRecorder;
import dev.converge.metrics.ControllerMetrics;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Objects the runtime could not process at one place (an index function, a watch's mapping
 * function): each is left out there, so that every other object of its kind keeps flowing, and is
 * reported once per object and place in the log, in metrics ({@code converge.objects.rejected}), in
 * {@code Operator.health()} problems and, for namespaced objects, as a Warning Event on the object.
 * The report goes away when the same place processes the object again without an error.
 */
public final class RejectedObjects {

  private static final Logger log = LoggerFactory.getLogger(RejectedObjects.class);

  /** Reports kept for health, at most; further ones are only logged and counted. */
  private static final int MAX_REPORTS = 100;

  private final ControllerMetrics metrics;
  private final Map<String, String> reports = new ConcurrentHashMap<>();
  private final ExecutorService eventWriter =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "converge-rejected-object-events");
            t.setDaemon(true);
            return t;
          });
  private volatile EventRecorder events = EventRecorder.discarding();

  public RejectedObjects(ControllerMetrics metrics) {
    this.metrics = metrics;
  }

  /** Where Warning Events about rejected objects go; default: nowhere. */
  public void events(EventRecorder recorder) {
    this.events = recorder;
  }

  /**
   * Reports that {@code place} (e.g. {@code index 'by-configmap'}) failed on {@code object} with
   * {@code cause}. Logged, counted and sent as an Event only the first time for this object and
   * place.
   */
  public void reject(HasMetadata object, String place, Throwable cause) {
    String kind = kindOf(object);
    String resource = kind + " " + keyOf(object);
    String message =
        resource
            + ": "
            + place
            + " failed with "
            + cause
            + "; the object is left out of it and the rest of "
            + kind
            + " is unaffected. Fix the object or make the function handle it";
    String id = resource + "|" + place;
    if (reports.size() >= MAX_REPORTS && !reports.containsKey(id)) {
      metrics.objectRejected(kind, placeKind(place));
      log.debug("{} (not kept for health: {} reports already)", message, MAX_REPORTS);
      return;
    }
    if (reports.put(id, message) != null) {
      return;
    }
    metrics.objectRejected(kind, placeKind(place));
    log.error("{}", message, cause);
    String namespace = object.getMetadata() == null ? null : object.getMetadata().getNamespace();
    if (namespace != null && !namespace.isEmpty()) {
      EventRecorder recorder = events;
      try {
        // never on the informer or dispatching thread: writing an Event is a request
        eventWriter.execute(
            () -> recorder.warning(object, "ObjectRejected", place + " failed: " + cause));
      } catch (RejectedExecutionException stopped) {
        log.debug("not recording an Event for {}: the operator is stopping", resource);
      }
    }
  }

  /** {@code place} processed {@code object} without an error: its earlier report, if any, ends. */
  public void accepted(HasMetadata object, String place) {
    if (reports.isEmpty()) {
      return;
    }
    String resource = kindOf(object) + " " + keyOf(object);
    if (reports.remove(resource + "|" + place) != null) {
      log.info("{}: {} now succeeds", resource, place);
    }
  }

  /** The current reports, one line each. */
  public List<String> problems() {
    return new ArrayList<>(reports.values());
  }

  /** Stops the background Event writer. */
  public void stop() {
    eventWriter.shutdown();
  }

  private static String kindOf(HasMetadata object) {
    String kind = object.getKind();
    return kind != null ? kind : HasMetadata.getKind(object.getClass());
  }

  private static String keyOf(HasMetadata object) {
    var metadata = object.getMetadata();
    if (metadata == null) {
      return "(no metadata)";
    }
    String ns = metadata.getNamespace();
    return (ns == null || ns.isEmpty() ? "" : ns + "/") + metadata.getName();
  }

  /** The place without the user's names, for a metric tag of bounded cardinality. */
  private static String placeKind(String place) {
    int space = place.indexOf(' ');
    return space < 0 ? place : place.substring(0, space);
  }
}
