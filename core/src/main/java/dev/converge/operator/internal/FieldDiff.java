package dev.converge.operator.internal;

import dev.converge.operator.DryRunReport.Change;
import dev.converge.operator.DryRunReport.FieldChange;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The fields in which two states of one object differ, leaf by leaf, as a dry-run report lists
 * them: {@code spec.replicas}, {@code metadata.labels.team}, {@code
 * spec.template.spec.containers[app].image}. Fields the API server manages on every write
 * (resourceVersion, generation, uid, managedFields, ...) are left out: they change on any write and
 * say nothing about what the operator changes.
 *
 * <p>A list whose elements all carry a distinct {@code name} is compared element by element by that
 * name, as the API server keys containers, ports and volumes; any other list by position. An empty
 * map or list is a value of its own ({@code {}} or {@code []}).
 */
public final class FieldDiff {

  /** Metadata the API server sets on every write or create. */
  static final Set<String> SERVER_MANAGED =
      Set.of(
          "metadata.resourceVersion",
          "metadata.managedFields",
          "metadata.generation",
          "metadata.uid",
          "metadata.creationTimestamp",
          "metadata.selfLink");

  private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z0-9_-]+");

  private FieldDiff() {}

  /**
   * What changes from {@code before} to {@code after}, in the order of the fields' paths; a null or
   * missing side has no fields (a create, a delete).
   */
  public static List<FieldChange> between(JsonNode before, JsonNode after) {
    Map<String, JsonNode> old = leaves(before);
    Map<String, JsonNode> now = leaves(after);
    List<FieldChange> changes = new ArrayList<>();
    for (Map.Entry<String, JsonNode> entry : old.entrySet()) {
      JsonNode next = now.get(entry.getKey());
      if (next == null) {
        changes.add(
            new FieldChange(Change.REMOVED, entry.getKey(), entry.getValue().toString(), null));
      } else if (!next.equals(entry.getValue())) {
        changes.add(
            new FieldChange(
                Change.CHANGED, entry.getKey(), entry.getValue().toString(), next.toString()));
      }
    }
    for (Map.Entry<String, JsonNode> entry : now.entrySet()) {
      if (!old.containsKey(entry.getKey())) {
        changes.add(
            new FieldChange(Change.ADDED, entry.getKey(), null, entry.getValue().toString()));
      }
    }
    changes.sort(
        (a, b) -> {
          int byPath = a.path().compareTo(b.path());
          return byPath != 0 ? byPath : a.change().compareTo(b.change());
        });
    return changes;
  }

  /** Every leaf of {@code object} by its path, the server-managed fields left out. */
  static Map<String, JsonNode> leaves(JsonNode object) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    if (object != null && !object.isMissingNode() && !object.isNull()) {
      collect("", object, out);
    }
    return out;
  }

  private static void collect(String path, JsonNode node, Map<String, JsonNode> out) {
    if (SERVER_MANAGED.contains(path)) {
      return;
    }
    if (node.isObject() && !node.isEmpty()) {
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        collect(child(path, field.getKey()), field.getValue(), out);
      }
    } else if (node.isArray() && !node.isEmpty()) {
      boolean byName = namedElements(node);
      for (int i = 0; i < node.size(); i++) {
        JsonNode element = node.get(i);
        String index = byName ? element.get("name").asString() : Integer.toString(i);
        collect(path + "[" + index + "]", element, out);
      }
    } else if (!path.isEmpty()) {
      out.put(path, node);
    }
  }

  /** Whether every element is an object with a distinct string {@code name}. */
  private static boolean namedElements(JsonNode list) {
    Set<String> names = new HashSet<>();
    for (JsonNode element : list) {
      JsonNode name = element.get("name");
      if (!element.isObject() || name == null || !name.isString() || !names.add(name.asString())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The path of a map entry: {@code parent.key}, or {@code parent["key"]} when the key holds a dot,
   * a slash or anything else that would make the path ambiguous.
   */
  static String child(String parent, String key) {
    if (PLAIN_KEY.matcher(key).matches()) {
      return parent.isEmpty() ? key : parent + "." + key;
    }
    return parent + "[\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\"]";
  }
}
