package dev.converge.schema;

import dev.converge.schema.internal.OpenApiDocument;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The schemas of the kinds a controller writes, read from the API server's OpenAPI v3 documents
 * ({@code /openapi/v3}, one document per group-version) and kept in memory: a group-version is
 * fetched once, and again only when a kind is missing from it (a CRD installed since), at once the
 * first time and then at growing intervals up to {@link #MAX_REFRESH_INTERVAL}, so a kind the
 * server never describes costs a request now and then, not on every apply. Looking a schema up is a
 * map read, so a steady-state reconcile sends no request for it. A CRD whose schema changes under a
 * running operator is read again after {@link #invalidate()}.
 *
 * <p>A kind the server publishes no schema for (an aggregated API without OpenAPI, a 404 or 403 on
 * the document) is {@link UntypedSchema}: maps merge key by key, lists are atomic, scalars compare
 * exactly — the server's own rules for values it knows nothing about.
 */
public final class ResourceSchemas {

  /** The longest wait between two fetches of a document that keeps missing a kind. */
  public static final Duration MAX_REFRESH_INTERVAL = Duration.ofMinutes(5);

  private static final Logger log = LoggerFactory.getLogger(ResourceSchemas.class);
  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static final Map<KubernetesClient, ResourceSchemas> SHARED = new WeakHashMap<>();

  private final Function<String, String> fetch;
  private final Clock clock;
  private final Map<String, Loaded> documents = new ConcurrentHashMap<>();
  private final Map<String, Boolean> warned = new ConcurrentHashMap<>();
  private volatile Loaded index;

  /**
   * A registry reading the schemas through {@code fetch}, for tests and for clients other than
   * fabric8's; {@link #of} is the one an operator uses.
   *
   * @param fetch reads a path of the API server ({@code /openapi/v3}, then the paths it lists) and
   *     returns the body, or null when the server answers 404
   * @param clock the clock that spaces out fetches of a document that keeps missing a kind
   */
  public ResourceSchemas(Function<String, String> fetch, Clock clock) {
    this.fetch = Objects.requireNonNull(fetch, "fetch");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * The registry last handed out, and its client: an operator has one client, asked every apply.
   */
  private record Last(
      java.lang.ref.WeakReference<KubernetesClient> client, ResourceSchemas schemas) {}

  private static volatile Last last;

  /**
   * The registry shared by every user of {@code client}, created on first use. Every write of every
   * worker asks for it, so the client asked for last is answered without a lock. The registry is
   * held only as long as the client is in use.
   *
   * @param client the client whose API server describes the kinds
   * @return the registry of {@code client}, the same on every call
   */
  public static ResourceSchemas of(KubernetesClient client) {
    Last known = last;
    if (known != null && known.client().get() == client) {
      return known.schemas();
    }
    synchronized (SHARED) {
      ResourceSchemas schemas =
          SHARED.computeIfAbsent(client, c -> new ResourceSchemas(c::raw, Clock.systemUTC()));
      last = new Last(new java.lang.ref.WeakReference<>(client), schemas);
      return schemas;
    }
  }

  /**
   * The schema of {@code kind}; {@link UntypedSchema} when the server publishes none (logged once
   * as a warning per kind).
   *
   * @param kind the kind whose objects are to be compared or merged
   * @return its schema, read from memory once its group-version's document is loaded
   * @throws SchemaUnavailableException if the document must be read and the server cannot be asked
   *     (a network error, a server error): deciding without the schema could be wrong
   */
  public SchemaNode forKind(ApiKind kind) {
    String apiVersion = kind.apiVersion();
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
    String path = group.isEmpty() ? "api/" + version : "apis/" + group + "/" + version;
    Optional<SchemaNode> found =
        document(path, false).flatMap(d -> d.kind(group, version, kind.kind()));
    if (found.isEmpty()) {
      found = document(path, true).flatMap(d -> d.kind(group, version, kind.kind()));
    }
    if (found.isEmpty()) {
      if (warned.putIfAbsent(kind.toString(), Boolean.TRUE) == null) {
        log.warn(
            "the API server publishes no OpenAPI v3 schema for {}; its objects are compared"
                + " without one (maps merged by key, lists whole, scalars exactly)",
            kind);
      }
      return UntypedSchema.INSTANCE;
    }
    return found.get();
  }

  /** Forgets every document, so the next lookup reads the server again. */
  public void invalidate() {
    documents.clear();
    index = null;
  }

  private Optional<OpenApiDocument> document(String path, boolean refresh) {
    Loaded known = documents.get(path);
    if (known != null && !(refresh && known.staleAt(clock.instant()))) {
      return Optional.ofNullable(known.document);
    }
    synchronized (this) {
      known = documents.get(path);
      if (known != null && !(refresh && known.staleAt(clock.instant()))) {
        return Optional.ofNullable(known.document);
      }
      Optional<String> url = documentUrl(path, refresh);
      OpenApiDocument document = null;
      if (url.isPresent()) {
        String body = read(url.get());
        if (body != null) {
          @SuppressWarnings("unchecked")
          Map<String, Object> parsed = JSON.unmarshal(body, Map.class);
          document = OpenApiDocument.of(parsed);
          log.debug("read the OpenAPI v3 schema of {} ({} definitions)", path, document.size());
        }
      }
      int refreshes = known == null ? 0 : known.refreshes() + 1;
      documents.put(path, new Loaded(document, clock.instant(), Map.of(), refreshes));
      return Optional.ofNullable(document);
    }
  }

  @SuppressWarnings("unchecked")
  private Optional<String> documentUrl(String path, boolean refresh) {
    Loaded current = index;
    if (current == null || (refresh && current.staleAt(clock.instant()))) {
      String body = read("/openapi/v3");
      current =
          new Loaded(
              null,
              clock.instant(),
              body == null
                  ? Map.of()
                  : (Map<String, Object>)
                      JSON.unmarshal(body, Map.class).getOrDefault("paths", Map.of()),
              current == null ? 0 : current.refreshes() + 1);
      index = current;
    }
    Object entry = current.paths.get(path);
    if (entry instanceof Map<?, ?> e && e.get("serverRelativeURL") instanceof String url) {
      return Optional.of(url);
    }
    return Optional.empty();
  }

  private String read(String path) {
    try {
      return fetch.apply(path);
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404 || e.getCode() == 403) {
        if (warned.putIfAbsent(path, Boolean.TRUE) == null) {
          log.warn(
              "reading {} from the API server: {} {}; kinds of it are compared without a schema",
              path,
              e.getCode(),
              e.getMessage());
        }
        return null;
      }
      throw new SchemaUnavailableException(
          "reading the API server's OpenAPI schema " + path + " failed: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new SchemaUnavailableException(
          "reading the API server's OpenAPI schema " + path + " failed: " + e, e);
    }
  }

  private record Loaded(
      OpenApiDocument document, Instant at, Map<String, Object> paths, int refreshes) {
    /** A miss may read again after 0 s, then 1 s, 2 s, 4 s ... up to the maximum. */
    boolean staleAt(Instant now) {
      Duration wait =
          refreshes == 0
              ? Duration.ZERO
              : Duration.ofSeconds(1L << Math.min(refreshes - 1, 20))
                          .compareTo(MAX_REFRESH_INTERVAL)
                      > 0
                  ? MAX_REFRESH_INTERVAL
                  : Duration.ofSeconds(1L << Math.min(refreshes - 1, 20));
      return Duration.between(at, now).compareTo(wait) >= 0;
    }
  }
}
