package dev.converge.operator.internal;

import dev.converge.operator.DryRunReport;
import dev.converge.operator.DryRunReport.Entry;
import dev.converge.operator.DryRunReport.FieldChange;
import dev.converge.operator.DryRunReport.Outcome;
import dev.converge.operator.DryRunReport.Refusal;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns the dry-run writes of one pass into the entries of a {@link DryRunReport}. Each write is
 * compared, on a thread of its own so that reconciles never wait for it, with the object as it is:
 * read with the operator's reading client after the dry run, which changed nothing (one GET per
 * update, patch, apply or delete; a create has nothing to read). An object written several times
 * with one verb keeps its last write.
 */
public final class DryRunRecorder implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DryRunRecorder.class);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /**
   * One write and the server's answer to its dry run.
   *
   * @param method the HTTP method
   * @param url the request's URL without its query
   * @param contentType the request body's content type; empty without a body
   * @param sent the request body (UTF-8); empty without one
   * @param code the HTTP status of the answer
   * @param answer the answer's body (UTF-8)
   */
  public record Write(
      String method, String url, String contentType, String sent, int code, String answer) {}

  private final KubernetesClient reads;
  private final ExecutorService worker;
  private final Map<String, Entry> entries = new ConcurrentHashMap<>();
  private final List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());

  /**
   * A recorder that reads live objects with {@code reads}.
   *
   * @param operatorName names the recorder's thread
   */
  public DryRunRecorder(KubernetesClient reads, String operatorName) {
    this.reads = reads;
    this.worker =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "converge-" + operatorName + "-dry-run");
              t.setDaemon(true);
              return t;
            });
  }

  /** Takes one write to compare; returns at once. */
  void written(Write write) {
    try {
      worker.execute(() -> record(write));
    } catch (java.util.concurrent.RejectedExecutionException closed) {
      log.warn(
          "dry run: {} {} answered after the pass ended; not reported",
          write.method(),
          write.url());
    }
  }

  /**
   * The entries recorded once every write taken so far is compared, sorted by kind, namespace,
   * name, subresource and verb.
   *
   * @param timeout how long to wait for the comparisons still queued
   * @throws IllegalStateException when they did not finish within {@code timeout}
   */
  public List<Entry> entries(Duration timeout) {
    Future<?> drained = worker.submit(() -> {});
    try {
      drained.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while comparing the dry-run writes", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(
          "the dry-run writes were not all compared within " + timeout, e);
    }
    return sorted(entries.values());
  }

  /** What kept a write out of the report (a live object that could not be read). */
  public List<String> problems() {
    synchronized (problems) {
      return List.copyOf(problems);
    }
  }

  @Override
  public void close() {
    worker.shutdownNow();
  }

  private void record(Write write) {
    try {
      Entry entry = entry(write);
      if (entry != null) {
        entries.put(
            String.join(
                "\u0000",
                entry.apiVersion(),
                entry.kind(),
                entry.namespace(),
                entry.name(),
                entry.subresource(),
                entry.verb()),
            entry);
      }
    } catch (RuntimeException e) {
      String problem = write.method() + " " + write.url() + ": " + e.getMessage();
      problems.add(problem);
      log.warn("dry run: could not compare {}", problem, e);
    }
  }

  /** The entry of one write; null for what changes no object (a refused collection delete). */
  Entry entry(Write write) {
    ApiPath target = ApiPath.parse(write.url());
    String verb = verb(write.method(), write.contentType());
    // a delete sends DeleteOptions, which say nothing of the object
    JsonNode sent = "delete".equals(verb) ? null : parse(write.sent());
    JsonNode answer = parse(write.answer());
    String name = target.name() != null ? target.name() : text(sent, "metadata", "name");
    if (write.code() >= 400) {
      if ("delete".equals(verb) && write.code() == 404) {
        return entry(target, verb, sent, answer, name, Outcome.UNCHANGED, List.of(), null);
      }
      Refusal refusal =
          new Refusal(
              write.code(),
              text(answer, "reason"),
              answer != null && answer.has("message")
                  ? answer.get("message").asString()
                  : write.answer());
      return entry(target, verb, sent, null, name, Outcome.REFUSED, List.of(), refusal);
    }
    JsonNode before;
    JsonNode after;
    if ("create".equals(verb)) {
      before = null;
      after = answer;
      name = text(answer, "metadata", "name").isEmpty() ? name : text(answer, "metadata", "name");
    } else {
      before = live(target.objectUrl(name));
      after = "delete".equals(verb) ? null : answer;
    }
    List<FieldChange> changes = FieldDiff.between(before, after);
    JsonNode described = after != null ? after : before != null ? before : sent;
    return entry(
        target,
        verb,
        described,
        null,
        name,
        changes.isEmpty() ? Outcome.UNCHANGED : Outcome.CHANGED,
        changes,
        null);
  }

  private static Entry entry(
      ApiPath target,
      String verb,
      JsonNode object,
      JsonNode fallback,
      String name,
      Outcome outcome,
      List<FieldChange> changes,
      Refusal refusal) {
    String kind = text(object, "kind");
    if (kind.isEmpty() || "Status".equals(kind)) {
      kind = text(fallback, "kind");
    }
    if (kind.isEmpty() || "Status".equals(kind)) {
      kind = target.resource();
    }
    String apiVersion = text(object, "apiVersion");
    if (apiVersion.isEmpty() || "Status".equals(text(object, "kind"))) {
      apiVersion = target.apiVersion();
    }
    return new Entry(
        apiVersion,
        kind,
        target.namespace(),
        name == null ? "" : name,
        target.subresource(),
        verb,
        outcome,
        changes,
        refusal);
  }

  /** The object at {@code url} as it is now; null when there is none. */
  private JsonNode live(String url) {
    try {
      String body = reads.raw(url);
      return body == null ? null : JSON.readTree(body);
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return null;
      }
      throw new IllegalStateException(
          "reading " + url + " for the comparison: " + e.getMessage(), e);
    }
  }

  static String verb(String method, String contentType) {
    return switch (method.toUpperCase(Locale.ROOT)) {
      case "POST" -> "create";
      case "PUT" -> "update";
      case "DELETE" -> "delete";
      case "PATCH" -> contentType.contains("apply-patch") ? "apply" : "patch";
      default -> method.toLowerCase(Locale.ROOT);
    };
  }

  private static JsonNode parse(String bytes) {
    if (bytes == null || bytes.isEmpty()) {
      return null;
    }
    try {
      JsonNode node = JSON.readTree(bytes);
      return node != null && node.isObject() ? node : null;
    } catch (JacksonException notJson) {
      return null; // a YAML apply body, a plain-text error: nothing to read fields from
    }
  }

  private static String text(JsonNode node, String... path) {
    JsonNode at = node;
    for (String step : path) {
      if (at == null || !at.isObject()) {
        return "";
      }
      at = at.get(step);
    }
    return at != null && at.isString() ? at.asString() : "";
  }

  private static List<Entry> sorted(Collection<Entry> entries) {
    List<Entry> list = new ArrayList<>(entries);
    list.sort(
        Comparator.comparing(Entry::kind)
            .thenComparing(Entry::namespace)
            .thenComparing(Entry::name)
            .thenComparing(Entry::subresource)
            .thenComparing(Entry::verb));
    return list;
  }

  /**
   * The parts of an API server URL: {@code /api/v1/namespaces/ns/configmaps/name/status} or {@code
   * /apis/apps/v1/deployments} (a collection: no name).
   */
  record ApiPath(
      String base,
      String prefix,
      String apiVersion,
      String namespace,
      String resource,
      String name,
      String subresource) {

    static ApiPath parse(String url) {
      okhttp3.HttpUrl parsed = okhttp3.HttpUrl.get(url);
      String base = parsed.newBuilder().encodedPath("/").query(null).build().toString();
      List<String> segments = parsed.pathSegments().stream().filter(s -> !s.isEmpty()).toList();
      int start;
      String apiVersion;
      if (!segments.isEmpty() && "api".equals(segments.get(0)) && segments.size() >= 2) {
        start = 2;
        apiVersion = segments.get(1);
      } else if (!segments.isEmpty() && "apis".equals(segments.get(0)) && segments.size() >= 3) {
        start = 3;
        apiVersion = segments.get(1) + "/" + segments.get(2);
      } else {
        throw new IllegalArgumentException("not a resource URL: " + url);
      }
      String prefix = String.join("/", segments.subList(0, start));
      List<String> rest = segments.subList(start, segments.size());
      String namespace = "";
      boolean namespaceSubresource =
          rest.size() == 3
              && "namespaces".equals(rest.get(0))
              && ("status".equals(rest.get(2)) || "finalize".equals(rest.get(2)));
      if (rest.size() >= 3 && "namespaces".equals(rest.get(0)) && !namespaceSubresource) {
        namespace = rest.get(1);
        rest = rest.subList(2, rest.size());
      }
      if (rest.isEmpty()) {
        throw new IllegalArgumentException("no resource in " + url);
      }
      return new ApiPath(
          base,
          prefix,
          apiVersion,
          namespace,
          rest.get(0),
          rest.size() > 1 ? rest.get(1) : null,
          rest.size() > 2 ? rest.get(2) : "");
    }

    /** The URL of the object {@code objectName} itself (no subresource). */
    String objectUrl(String objectName) {
      return base
          + prefix
          + (namespace.isEmpty() ? "" : "/namespaces/" + namespace)
          + "/"
          + resource
          + "/"
          + objectName;
    }
  }
}
