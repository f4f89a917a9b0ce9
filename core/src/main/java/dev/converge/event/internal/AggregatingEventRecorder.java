package dev.converge.event.internal;

import dev.converge.event.EventRecorder;
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
import java.time.Clock;
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
 * one Event by patching its {@code count} and {@code lastTimestamp}.
 *
 * <p>The aggregation cache is an LRU map of at most {@code cacheSize} keys, so memory stays bounded
 * however many objects the controller sees; a key that fell out (or an Event the API server has
 * expired, which answers 404) simply starts a new Event. Writes for one key are serialised; writes for
 * different keys proceed in parallel.
 */
public final class AggregatingEventRecorder implements EventRecorder {

  private static final Logger LOG = LoggerFactory.getLogger(AggregatingEventRecorder.class);
  static final int MAX_REASON = 128;
  static final int MAX_MESSAGE = 1024;

  /** What makes two Events "the same" for aggregation. */
  record Key(String namespace, String involvedKind, String involvedName, String involvedUid,
      String type, String reason, String message) {}

  /** The Event a key was last written to; guarded by its own monitor. */
  static final class Slot {
    String eventName;
    int count;
  }

  private final KubernetesClient client;
  private final String component;
  private final String instance;
  private final Clock clock;
  private final Map<Key, Slot> slots;
  private final AtomicLong sequence;

  public AggregatingEventRecorder(KubernetesClient client, String component, String instance,
      int cacheSize, Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.component = Objects.requireNonNull(component, "component");
    this.instance = Objects.requireNonNull(instance, "instance");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.slots = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Key, Slot> eldest) {
        return size() > cacheSize;
      }
    };
    // Unique per recorder and distinct across restarts, like client-go's "<name>.<unix nanos>".
    this.sequence =
        new AtomicLong(System.currentTimeMillis() * 1_000_000L + System.nanoTime() % 1_000_000L);
  }

  @Override
  public void record(HasMetadata involved, EventType type, String reason, String message) {
    try {
      write(involved, type, reason, message);
    } catch (RuntimeException e) {
      LOG.warn("could not record {} event {} for {}: {}", type, reason,
          ResourceText.describe(involved), e.toString());
      LOG.debug("event write failure", e);
    }
  }

  /** Number of keys currently remembered; exposed for tests of the memory bound. */
  public int cachedKeys() {
    synchronized (slots) {
      return slots.size();
    }
  }

  private void write(HasMetadata involved, EventType type, String reason, String message) {
    Objects.requireNonNull(involved, "involved object");
    Objects.requireNonNull(type, "type");
    if (reason == null || reason.isBlank()) {
      throw new IllegalArgumentException("event reason must not be blank");
    }
    String shortReason = truncate(reason, MAX_REASON);
    String shortMessage = truncate(message == null ? "" : message, MAX_MESSAGE);
    ObjectMeta meta = Objects.requireNonNull(involved.getMetadata(), "involved object metadata");
    String involvedNamespace = meta.getNamespace();
    String namespace = involvedNamespace == null || involvedNamespace.isBlank()
        ? "default" : involvedNamespace;
    String kind = ResourceText.kindOf(involved);
    Key key = new Key(namespace, kind, meta.getName(), meta.getUid(), type.wireValue(),
        shortReason, shortMessage);
    Slot slot;
    synchronized (slots) {
      slot = slots.computeIfAbsent(key, k -> new Slot());
    }
    synchronized (slot) {
      String now =
          DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(ChronoUnit.SECONDS));
      if (slot.eventName != null && increment(namespace, slot, now)) {
        return;
      }
      Event created = create(involved, kind, namespace, key, now);
      slot.eventName = created.getMetadata().getName();
      slot.count = created.getCount() == null ? 1 : created.getCount();
    }
  }

  /** Bumps count and lastTimestamp of the slot's Event; false when the Event is gone. */
  private boolean increment(String namespace, Slot slot, String now) {
    ObjectNode patch = JsonNodeFactory.instance.objectNode()
        .put("count", slot.count + 1)
        .put("lastTimestamp", now);
    try {
      Event patched = client.v1().events().inNamespace(namespace).withName(slot.eventName)
          .patch(PatchContext.of(PatchType.JSON_MERGE),
              client.getKubernetesSerialization().asJson(patch));
      slot.count = patched.getCount() == null ? slot.count + 1 : patched.getCount();
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        LOG.debug("event {}/{} expired; starting a new one", namespace, slot.eventName);
        return false;
      }
      throw e;
    }
  }

  private Event create(HasMetadata involved, String kind, String namespace, Key key, String now) {
    ObjectReference reference = new ObjectReferenceBuilder()
        .withApiVersion(ResourceText.apiVersionOf(involved))
        .withKind(kind)
        .withName(involved.getMetadata().getName())
        .withNamespace(involved.getMetadata().getNamespace())
        .withUid(involved.getMetadata().getUid())
        .withResourceVersion(involved.getMetadata().getResourceVersion())
        .build();
    KubernetesClientException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      Event event = new EventBuilder()
          .withNewMetadata()
            .withName(eventName(involved.getMetadata().getName()))
            .withNamespace(namespace)
          .endMetadata()
          .withInvolvedObject(reference)
          .withType(key.type())
          .withReason(key.reason())
          .withMessage(key.message())
          .withCount(1)
          .withFirstTimestamp(now)
          .withLastTimestamp(now)
          .withNewSource().withComponent(component).endSource()
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
