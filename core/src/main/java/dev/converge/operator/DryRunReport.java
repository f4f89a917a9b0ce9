package dev.converge.operator;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What one pass of an operator would change, found by sending every write as a server-side dry run
 * ({@link OperatorBuilder#dryRun}): before a new version of an operator is rolled out over many
 * objects, its users see what it would write, field by field, while nothing is persisted.
 *
 * <p>Each {@link Entry} is one object written one way (its last write of that verb in the pass):
 * the fields in which the API server's answer to the dry run differs from the object as it is
 * (everything is new for a create, everything goes for a delete), or the server's refusal. Fields
 * the server sets on every write (resourceVersion, generation, uid, managedFields,
 * creationTimestamp) are not compared.
 *
 * <p>{@link #json()} has a stable schema, {@value #SCHEMA}:
 *
 * <pre>{@code
 * {"schema": "converge.dev/dry-run-report/v1",
 *  "summary": {"reconciled": 200, "objects": 400, "unchanged": 200, "wouldChange": 199,
 *              "wouldBeRefused": 1, "failedReconciles": 0, "writesByKind": {"ConfigMap": 200}},
 *  "entries": [{"apiVersion": "v1", "kind": "ConfigMap", "namespace": "ns", "name": "a",
 *               "subresource": null, "verb": "apply", "outcome": "CHANGED",
 *               "changes": [{"change": "ADDED", "path": "metadata.labels.team",
 *                            "before": null, "after": "x"}],
 *               "refusal": null}],
 *  "failures": ["Widget ns/b: ..."]}
 * }</pre>
 *
 * <p>{@code outcome} is {@code UNCHANGED}, {@code CHANGED} or {@code REFUSED}; {@code change} is
 * {@code ADDED}, {@code CHANGED} or {@code REMOVED}; {@code before} and {@code after} are the JSON
 * values, null where absent; {@code refusal} is {@code {"code": 422, "reason": "Invalid",
 * "message": "..."}} for a refused write. A path names map entries with dots ({@code
 * metadata.labels.team}), keys that hold other characters in brackets and quotes ({@code
 * metadata.labels["app.kubernetes.io/name"]}), list elements by their {@code name} where every
 * element has a distinct one ({@code spec.template.spec.containers[app].image}), else by position.
 *
 * @param entries one per object and verb written in the pass, in the order of their kinds and names
 * @param primaries the primaries the pass reconciled once (those in the caches after they synced),
 *     as {@code Kind namespace/name}; they count among the objects even when nothing was written
 *     for them
 * @param failures reconciles that ended with an error other than a refused write, as {@code Kind
 *     namespace/name: message}
 */
public record DryRunReport(List<Entry> entries, List<String> primaries, List<String> failures) {

  /** The value of the {@code schema} field of {@link #json()}. */
  public static final String SCHEMA = "converge.dev/dry-run-report/v1";

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /**
   * A report; the lists are copied.
   *
   * @param entries one per object and verb written in the pass
   * @param primaries the primaries the pass reconciled, as {@code Kind namespace/name}
   * @param failures reconciles that ended with an error other than a refused write
   */
  public DryRunReport {
    entries = List.copyOf(entries);
    primaries = List.copyOf(primaries);
    failures = List.copyOf(failures);
  }

  /** What a dry-run write would do. */
  public enum Outcome {
    /** The server's answer equals the object as it is: the real write would change nothing. */
    UNCHANGED,
    /** The real write would change the fields listed. */
    CHANGED,
    /** The server refused the write; the real one would be refused too. */
    REFUSED
  }

  /** How one field would change. */
  public enum Change {
    /** The field is new. */
    ADDED("+"),
    /** The field has another value. */
    CHANGED("~"),
    /** The field goes away. */
    REMOVED("-");

    private final String symbol;

    Change(String symbol) {
      this.symbol = symbol;
    }

    /**
     * The sign of the change in {@link #text()}.
     *
     * @return {@code +}, {@code ~} or {@code -}
     */
    public String symbol() {
      return symbol;
    }
  }

  /** The two outputs of a pass: for people, and for programs. */
  public enum Format {
    /** {@link #text()}. */
    TEXT,
    /** {@link #json()}. */
    JSON
  }

  /**
   * One field that would change.
   *
   * @param change added, changed or removed
   * @param path the field's path, such as {@code metadata.labels.team}
   * @param before the value as JSON as it is now; null when the field is new
   * @param after the value as JSON after the write; null when the field goes
   */
  public record FieldChange(Change change, String path, String before, String after) {

    /**
     * A change.
     *
     * @param change added, changed or removed; required
     * @param path the field's path; required
     * @param before the value as JSON before; null when the field is new
     * @param after the value as JSON after; null when the field goes
     */
    public FieldChange {
      Objects.requireNonNull(change, "change");
      Objects.requireNonNull(path, "path");
    }

    /**
     * The change as a line of {@link #text()}: {@code ~ spec.replicas: 1 -> 2}, {@code +
     * metadata.labels.team: x}, {@code - metadata.annotations.note: old}.
     *
     * @return the line, without indentation
     */
    public String line() {
      return switch (change) {
        case ADDED -> "+ " + path + ": " + plain(after);
        case REMOVED -> "- " + path + ": " + plain(before);
        case CHANGED -> "~ " + path + ": " + plain(before) + " -> " + plain(after);
      };
    }

    private static String plain(String json) {
      if (json != null && json.length() >= 2 && json.startsWith("\"")) {
        return JSON.readTree(json).asString();
      }
      return json;
    }
  }

  /**
   * The server's refusal of a write.
   *
   * @param code the HTTP status, such as 422
   * @param reason the Status's reason, such as {@code Invalid}; empty when it gave none
   * @param message the server's message, which names the field
   */
  public record Refusal(int code, String reason, String message) {}

  /**
   * One object written one way in the pass.
   *
   * @param apiVersion the object's apiVersion
   * @param kind the object's kind (the resource's plural when the server told neither)
   * @param namespace its namespace; empty for a cluster-scoped object
   * @param name its name
   * @param subresource {@code status} or another subresource written; empty for the object itself
   * @param verb {@code create}, {@code update}, {@code patch}, {@code apply} (server-side apply) or
   *     {@code delete}
   * @param outcome unchanged, changed or refused
   * @param changes the fields that would change; empty unless changed
   * @param refusal the server's answer when refused; null otherwise
   */
  public record Entry(
      String apiVersion,
      String kind,
      String namespace,
      String name,
      String subresource,
      String verb,
      Outcome outcome,
      List<FieldChange> changes,
      Refusal refusal) {

    /**
     * An entry; the changes are copied, a null namespace or subresource becomes empty.
     *
     * @param apiVersion the object's apiVersion
     * @param kind the object's kind
     * @param namespace its namespace; empty or null for a cluster-scoped object
     * @param name its name
     * @param subresource the subresource written; empty or null for the object itself
     * @param verb create, update, patch, apply or delete
     * @param outcome unchanged, changed or refused
     * @param changes the fields that would change
     * @param refusal the server's answer when refused; null otherwise
     */
    public Entry {
      changes = List.copyOf(changes);
      namespace = namespace == null ? "" : namespace;
      subresource = subresource == null ? "" : subresource;
    }

    /**
     * The object as errors and logs name it.
     *
     * @return {@code Kind namespace/name}, or {@code Kind name} when cluster-scoped
     */
    public String object() {
      return kind + " " + (namespace.isEmpty() ? "" : namespace + "/") + name;
    }
  }

  /**
   * The primaries the pass reconciled.
   *
   * @return how many
   */
  public int reconciled() {
    return primaries.size();
  }

  /**
   * The objects whose writes would change nothing, primaries reconciled without any write included.
   *
   * @return how many
   */
  public int unchanged() {
    return objectsBy().values().stream().filter(o -> o == Outcome.UNCHANGED).mapToInt(o -> 1).sum();
  }

  /**
   * The objects at least one write would change (and none would be refused).
   *
   * @return how many
   */
  public int wouldChange() {
    return objectsBy().values().stream().filter(o -> o == Outcome.CHANGED).mapToInt(o -> 1).sum();
  }

  /**
   * The objects with at least one write the API server refused.
   *
   * @return how many
   */
  public int wouldBeRefused() {
    return objectsBy().values().stream().filter(o -> o == Outcome.REFUSED).mapToInt(o -> 1).sum();
  }

  /**
   * The entries that would change something.
   *
   * @return those entries, in the report's order
   */
  public List<Entry> changes() {
    return entries.stream().filter(e -> e.outcome() == Outcome.CHANGED).toList();
  }

  /**
   * The entries the API server refused.
   *
   * @return those entries, in the report's order
   */
  public List<Entry> refusals() {
    return entries.stream().filter(e -> e.outcome() == Outcome.REFUSED).toList();
  }

  /**
   * The writes of the pass by kind (a status write counts as {@code Kind/status}).
   *
   * @return kind to count, sorted by kind
   */
  public Map<String, Integer> writesByKind() {
    Map<String, Integer> counts = new TreeMap<>();
    for (Entry entry : entries) {
      String key = entry.kind() + (entry.subresource().isEmpty() ? "" : "/" + entry.subresource());
      counts.merge(key, 1, Integer::sum);
    }
    return counts;
  }

  /** Each object's outcome: refused over changed over unchanged. */
  private Map<String, Outcome> objectsBy() {
    Map<String, Outcome> objects = new LinkedHashMap<>();
    for (String primary : primaries) {
      objects.put(primary, Outcome.UNCHANGED);
    }
    for (Entry entry : entries) {
      objects.merge(
          entry.object(),
          entry.outcome(),
          (a, b) -> a.compareTo(b) >= 0 ? a : b); // REFUSED > CHANGED > UNCHANGED
    }
    return objects;
  }

  /**
   * The report for people: each object that would change or be refused, its fields one per line,
   * then the summary.
   *
   * <pre>
   * ConfigMap ns/a (apply)
   *   + metadata.labels.team: x
   * ConfigMap ns/bad (apply): would be refused: 422 Invalid: ConfigMap "bad" is invalid: ...
   * 200 primaries reconciled; 400 objects: 200 unchanged, 199 would change, 1 would be refused
   * writes by kind: ConfigMap 200, Widget/status 200
   * </pre>
   *
   * @return the text, lines ending with a newline
   */
  public String text() {
    StringBuilder out = new StringBuilder();
    for (Entry entry : entries) {
      String head =
          entry.object()
              + " ("
              + entry.verb()
              + (entry.subresource().isEmpty() ? "" : " " + entry.subresource())
              + ")";
      if (entry.outcome() == Outcome.REFUSED) {
        Refusal refusal = entry.refusal();
        out.append(head)
            .append(": would be refused: ")
            .append(refusal.code())
            .append(refusal.reason().isEmpty() ? "" : " " + refusal.reason())
            .append(": ")
            .append(refusal.message())
            .append('\n');
      } else if (entry.outcome() == Outcome.CHANGED) {
        out.append(head).append('\n');
        for (FieldChange change : entry.changes()) {
          out.append("  ").append(change.line()).append('\n');
        }
      }
    }
    for (String failure : failures) {
      out.append("reconcile failed: ").append(failure).append('\n');
    }
    out.append(summary()).append('\n');
    return out.toString();
  }

  /**
   * The summary line of {@link #text()}, and the writes by kind.
   *
   * @return two lines, the first ending with the counts of objects
   */
  public String summary() {
    Set<String> kinds = new LinkedHashSet<>();
    writesByKind().forEach((kind, count) -> kinds.add(kind + " " + count));
    return reconciled()
        + " primaries reconciled; "
        + objectsBy().size()
        + " objects: "
        + unchanged()
        + " unchanged, "
        + wouldChange()
        + " would change, "
        + wouldBeRefused()
        + " would be refused"
        + (failures.isEmpty() ? "" : "; " + failures.size() + " reconciles failed")
        + "\nwrites by kind: "
        + (kinds.isEmpty() ? "none" : String.join(", ", kinds));
  }

  /**
   * The report for programs, in the schema described above ({@value #SCHEMA}).
   *
   * @return the JSON document, indented
   */
  public String json() {
    ObjectNode root = JSON.createObjectNode();
    root.put("schema", SCHEMA);
    ObjectNode summary = root.putObject("summary");
    summary.put("reconciled", reconciled());
    summary.put("objects", objectsBy().size());
    summary.put("unchanged", unchanged());
    summary.put("wouldChange", wouldChange());
    summary.put("wouldBeRefused", wouldBeRefused());
    summary.put("failedReconciles", failures.size());
    ObjectNode byKind = summary.putObject("writesByKind");
    writesByKind().forEach(byKind::put);
    ArrayNode list = root.putArray("entries");
    for (Entry entry : entries) {
      ObjectNode node = list.addObject();
      node.put("apiVersion", entry.apiVersion());
      node.put("kind", entry.kind());
      node.put("namespace", entry.namespace());
      node.put("name", entry.name());
      node.put("subresource", entry.subresource().isEmpty() ? null : entry.subresource());
      node.put("verb", entry.verb());
      node.put("outcome", entry.outcome().name());
      ArrayNode changes = node.putArray("changes");
      for (FieldChange change : entry.changes()) {
        ObjectNode c = changes.addObject();
        c.put("change", change.change().name());
        c.put("path", change.path());
        c.set("before", value(change.before()));
        c.set("after", value(change.after()));
      }
      if (entry.refusal() == null) {
        node.putNull("refusal");
      } else {
        ObjectNode refusal = node.putObject("refusal");
        refusal.put("code", entry.refusal().code());
        refusal.put("reason", entry.refusal().reason());
        refusal.put("message", entry.refusal().message());
      }
    }
    ArrayNode failed = root.putArray("failures");
    failures.forEach(failed::add);
    return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
  }

  /**
   * The report in {@code format}.
   *
   * @param format text or JSON
   * @return {@link #text()} or {@link #json()}
   */
  public String render(Format format) {
    return format == Format.JSON ? json() + "\n" : text();
  }

  private static JsonNode value(String json) {
    return json == null ? JSON.nullNode() : JSON.readTree(json);
  }
}
