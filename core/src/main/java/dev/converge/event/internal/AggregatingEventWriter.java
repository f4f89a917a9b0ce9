package dev.converge.event.internal;

import dev.converge.event.EventType;
import dev.converge.retry.internal.ResourceText;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes core/v1 Events and folds repeats of the same (involved object, type, reason, message) into
 * one Event by patching its {@code count} and {@code lastTimestamp}. It sends its requests on the
 * caller's thread; {@link AsyncEventRecorder} puts it behind a queue so that no reconcile waits.
 *
 * <p>A fold is one JSON merge patch of the Event, sent without reading the Event first, so it needs
 * only the verbs {@code EventRecorder#verbs()} declares (create, patch).
 *
 * <p>The aggregation cache is an LRU map of at most {@code cacheSize} keys, so memory stays bounded
 * however many objects the controller sees; a key that fell out (or an Event the API server has
 * expired, which answers 404) simply starts a new Event. Writes for one key are serialised; writes
 * for different keys proceed in parallel.
 */
public final class AggregatingEventWriter {

  private static final Logger LOG = LoggerFactory.getLogger(AggregatingEventWriter.class);
  static final int MAX_REASON = 128;
  static final int MAX_MESSAGE = 1024;

  /** What makes two Events "the same" for aggregation. */
  public record Key(
      String namespace,
      String involvedKind,
      String involvedName,
      String involvedUid,
      String type,
      String reason,
      String message) {

    /** The involved object alone: what the per-object rate limit counts. */
    String object() {
      return namespace + "/" + involvedKind + "/" + involvedName + "/" + involvedUid;
    }
  }

  /** The Event a key was last written to; guarded by its own monitor. */
  static final class Slot {
    String eventName;
    int count;
  }

  private final KubernetesClient client;
  private final String component;
  private final String instance;
  private final Map<Key, Slot> slots;
  private final AtomicLong sequence;

  public AggregatingEventWriter(
      KubernetesClient client, String component, String instance, int cacheSize) {
    this.client = Objects.requireNonNull(client, "client");
    this.component = Objects.requireNonNull(component, "component");
    this.instance = Objects.requireNonNull(instance, "instance");
    this.slots =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Key, Slot> eldest) {
            return size() > cacheSize;
          }
        };
    // Unique per recorder and distinct across restarts, like client-go's "<name>.<unix nanos>".
    this.sequence =
        new AtomicLong(System.currentTimeMillis() * 1_000_000L + System.nanoTime() % 1_000_000L);
  }

  /** Number of keys currently remembered; exposed for tests of the memory bound. */
  public int cachedKeys() {
    synchronized (slots) {
      return slots.size();
    }
  }

  /**
   * The aggregation key of an Event, with reason and message cut to the API server's limits.
   *
   * @throws IllegalArgumentException when the reason is blank or the object has no metadata
   */
  public static Key keyOf(HasMetadata involved, EventType type, String reason, String message) {
    Objects.requireNonNull(involved, "involved object");
    Objects.requireNonNull(type, "type");
    if (reason == null || reason.isBlank()) {
      throw new IllegalArgumentException(
          "event reason must not be blank (event about " + ResourceText.describe(involved) + ")");
    }
    ObjectMeta meta = involved.getMetadata();
    if (meta == null) {
      throw new IllegalArgumentException(
          "event "
              + reason
              + " is about an object without"
              + " metadata ("
              + involved.getClass().getSimpleName()
              + "); pass the object as read");
    }
    String involvedNamespace = meta.getNamespace();
    String namespace =
        involvedNamespace == null || involvedNamespace.isBlank() ? "default" : involvedNamespace;
    return new Key(
        namespace,
        ResourceText.kindOf(involved),
        meta.getName(),
        meta.getUid(),
        type.wireValue(),
        truncate(reason, MAX_REASON),
        truncate(message == null ? "" : message, MAX_MESSAGE));
  }

  /**
   * Records {@code times} occurrences of {@code key}, the first at {@code first} and the last at
   * {@code last}: a count patch of the Event this key was last written to, or a new Event.
   */
  public void write(HasMetadata involved, Key key, int times, Instant first, Instant last) {
    Slot slot;
    synchronized (slots) {
      slot = slots.computeIfAbsent(key, k -> new Slot());
    }
    synchronized (slot) {
      String lastText = timestamp(last);
      if (slot.eventName != null && increment(key.namespace(), slot, times, lastText)) {
        return;
      }
      Event created = create(involved, key, times, timestamp(first), lastText);
      slot.eventName = created.getMetadata().getName();
      slot.count = created.getCount() == null ? times : created.getCount();
    }
  }

  private static String timestamp(Instant at) {
    return DateTimeFormatter.ISO_INSTANT.format(at.truncatedTo(ChronoUnit.SECONDS));
  }

  /** Bumps count and lastTimestamp of the slot's Event; false when the Event is gone. */
  private boolean increment(String namespace, Slot slot, int times, String now) {
    ObjectNode patch =
        JsonNodeFactory.instance
            .objectNode()
            .put("count", slot.count + times)
            .put("lastTimestamp", now);
    // The patch goes to an Event named by a stand-in rather than by withName(...): fabric8's
    // patch of a resource known only by name reads it first, and the role Converge generates
    // grants create and patch on Events, not get. One PATCH per fold, no read.
    Event named =
        new EventBuilder()
            .withNewMetadata()
            .withName(slot.eventName)
            .withNamespace(namespace)
            .endMetadata()
            .build();
    try {
      Event patched =
          client
              .v1()
              .events()
              .inNamespace(namespace)
              .resource(named)
              .patch(
                  PatchContext.of(PatchType.JSON_MERGE),
                  client.getKubernetesSerialization().asJson(patch));
      slot.count = patched.getCount() == null ? slot.count + times : patched.getCount();
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        LOG.debug("event {}/{} expired; starting a new one", namespace, slot.eventName);
        return false;
      }
      throw e;
    }
  }

  private Event create(HasMetadata involved, Key key, int times, String first, String lastSeen) {
    String kind = key.involvedKind();
    String namespace = key.namespace();
    ObjectReference reference =
        new ObjectReferenceBuilder()
            .withApiVersion(ResourceText.apiVersionOf(involved))
            .withKind(kind)
            .withName(involved.getMetadata().getName())
            .withNamespace(involved.getMetadata().getNamespace())
            .withUid(involved.getMetadata().getUid())
            .withResourceVersion(involved.getMetadata().getResourceVersion())
            .build();
    KubernetesClientException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      Event event =
          new EventBuilder()
              .withNewMetadata()
              .withName(eventName(involved.getMetadata().getName()))
              .withNamespace(namespace)
              .endMetadata()
              .withInvolvedObject(reference)
              .withType(key.type())
              .withReason(key.reason())
              .withMessage(key.message())
              .withCount(times)
              .withFirstTimestamp(first)
              .withLastTimestamp(lastSeen)
              .withNewSource()
              .withComponent(component)
              .endSource()
              .withReportingComponent(component)
              .withReportingInstance(instance)
              .build();
      try {
        return client.v1().events().inNamespace(namespace).resource(event).create();
      } catch (KubernetesClientException e) {
        if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
          throw e;
        }
        last = e; // name taken (another replica picked the same suffix): choose another
      }
    }
    throw last;
  }

  /** {@code <involved name>.<unique hex suffix>}, within the 253 characters of a DNS subdomain. */
  private String eventName(String involvedName) {
    String suffix = "." + Long.toHexString(sequence.incrementAndGet());
    String base = involvedName == null || involvedName.isBlank() ? "event" : involvedName;
    int room = 253 - suffix.length();
    String head = base.length() > room ? base.substring(0, room) : base;
    // A cut may leave a '.' or '-' at the end, which a DNS subdomain label may not end with.
    return head.replaceAll("[.-]+$", "") + suffix;
  }

  private static String truncate(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 3) + "...";
  }
}
