package dev.converge.crd.roundtrip.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The values a structural schema declares it refuses, one {@link HostileCase} per constraint: a
 * wrong JSON type, a bound, a length, a pattern, a format, an enum, an item count, a missing
 * required property, a duplicate in a set or list-map, two of an exactly-one-of. CEL rules are
 * listed, not broken: what violates an arbitrary expression cannot be derived from it.
 *
 * <p>Constraints inside maps ({@code additionalProperties}) are not broken either; their values are
 * drawn like everything else.
 */
public final class HostileCases {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final List<String> NON_MATCHING =
      List.of("", "!", "NOT VALID", "~~~", "0", "a", "-", "A_1 x", "lots", "1h30m");

  private final RandomValues values;
  private final List<HostileCase> cases = new ArrayList<>();
  private final List<String> rules = new ArrayList<>();

  private HostileCases(RandomValues values) {
    this.values = values;
  }

  /**
   * The cases for a schema whose value sits at {@code root} (e.g. {@code spec}), and the rules left
   * unbroken.
   */
  public static Found of(JsonNode schema, String root, RandomValues values) {
    HostileCases walk = new HostileCases(values);
    walk.walk(schema, root, true);
    return new Found(List.copyOf(walk.cases), List.copyOf(walk.rules));
  }

  /**
   * What a schema offers to break.
   *
   * @param cases the constraints to break
   * @param unbrokenRules CEL rules by path, as {@code spec.image: self.startsWith('img-')}
   */
  public record Found(List<HostileCase> cases, List<String> unbrokenRules) {}

  private void walk(JsonNode schema, String path, boolean root) {
    for (JsonNode rule : schema.path("x-kubernetes-validations")) {
      rules.add(path + ": " + rule.path("rule").asString());
    }
    if (!root) {
      leafCases(schema, path);
    }
    String type = schema.path("type").asString("");
    if (type.equals("object")) {
      objectCases(schema, path);
      for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
        walk(property.getValue(), path + "." + property.getKey(), false);
      }
    } else if (type.equals("array") && schema.has("items")) {
      arrayCases(schema, path);
      walk(schema.get("items"), path + "[0]", false);
    }
  }

  private void leafCases(JsonNode schema, String path) {
    boolean intOrString = schema.path("x-kubernetes-int-or-string").asBoolean(false);
    String type = schema.path("type").asString("");
    if (!type.isEmpty() && !intOrString) {
      JsonNode wrong =
          switch (type) {
            case "string" -> NODES.numberNode(12345);
            case "integer", "number" -> NODES.stringNode("not-a-number");
            case "boolean" -> NODES.stringNode("yes");
            default -> NODES.stringNode("not-an-" + type);
          };
      add(path, "type " + type, current -> wrong);
    }
    if (schema.has("enum") && schema.get("enum").valueStream().allMatch(JsonNode::isString)) {
      add(path, "enum", current -> NODES.stringNode("not-an-allowed-value"));
    }
    boolean integer = type.equals("integer");
    if (schema.has("minimum")) {
      double min = schema.get("minimum").asDouble();
      boolean exclusive = schema.path("exclusiveMinimum").asBoolean(false);
      double bad = exclusive ? min : integer ? min - 1 : min - 0.5;
      add(
          path,
          (exclusive ? "exclusiveMinimum " : "minimum ") + number(min),
          current -> number(bad, integer));
    }
    if (schema.has("maximum")) {
      double max = schema.get("maximum").asDouble();
      boolean exclusive = schema.path("exclusiveMaximum").asBoolean(false);
      double bad = exclusive ? max : integer ? max + 1 : max + 0.5;
      add(
          path,
          (exclusive ? "exclusiveMaximum " : "maximum ") + number(max),
          current -> number(bad, integer));
    }
    if (schema.path("minLength").asInt(0) > 0) {
      int min = schema.get("minLength").asInt();
      add(path, "minLength " + min, current -> NODES.stringNode("a".repeat(min - 1)));
    }
    if (schema.has("maxLength")) {
      int max = schema.get("maxLength").asInt();
      add(path, "maxLength " + max, current -> NODES.stringNode("a".repeat(max + 1)));
    }
    if (schema.has("pattern")) {
      Pattern pattern = Pattern.compile(schema.get("pattern").asString());
      NON_MATCHING.stream()
          .filter(candidate -> !pattern.matcher(candidate).find())
          .findFirst()
          .ifPresent(
              bad -> add(path, "pattern " + pattern.pattern(), current -> NODES.stringNode(bad)));
    }
    String format = schema.path("format").asString("");
    String badFormat =
        switch (format) {
          case "date-time", "date" -> "not a " + format;
          case "duration" -> "soon";
          case "byte" -> "!!not base64!!";
          case "uuid" -> "not-a-uuid";
          default -> null;
        };
    if (badFormat != null && type.equals("string") && !schema.has("pattern")) {
      add(path, "format " + format, current -> NODES.stringNode(badFormat));
    }
  }

  private void objectCases(JsonNode schema, String path) {
    for (JsonNode required : schema.path("required")) {
      JsonNode property = schema.path("properties").path(required.asString());
      if (!property.has("default")) {
        add(path + "." + required.asString(), "required", current -> null);
      }
    }
    List<String> alternatives = new ArrayList<>();
    for (JsonNode alternative : schema.path("oneOf")) {
      alternative.path("required").forEach(name -> alternatives.add(name.asString()));
    }
    if (alternatives.size() > 1) {
      add(
          path,
          "exactly one of " + alternatives,
          current -> {
            ObjectNode both =
                current instanceof ObjectNode object ? object.deepCopy() : NODES.objectNode();
            for (String name : alternatives) {
              if (!both.has(name)) {
                both.set(
                    name,
                    values.value(schema.get("properties").get(name), path + "." + name, Set.of()));
              }
            }
            return both;
          });
    }
  }

  private void arrayCases(JsonNode schema, String path) {
    if (schema.path("minItems").asInt(0) > 0) {
      int min = schema.get("minItems").asInt();
      add(
          path,
          "minItems " + min,
          current -> {
            ArrayNode fewer = NODES.arrayNode();
            for (int i = 0; i < min - 1 && current != null && i < current.size(); i++) {
              fewer.add(current.get(i).deepCopy());
            }
            return fewer;
          });
    }
    if (schema.has("maxItems")) {
      int max = schema.get("maxItems").asInt();
      add(
          path,
          "maxItems " + max,
          current -> {
            ArrayNode more = NODES.arrayNode();
            for (int i = 0; i <= max; i++) {
              more.add(values.value(schema.get("items"), path + "[" + i + "]", Set.of()));
            }
            return more;
          });
    }
    String listType = schema.path("x-kubernetes-list-type").asString("");
    if (listType.equals("set") || listType.equals("map")) {
      add(
          path,
          "list-type " + listType + " (a duplicate)",
          current -> {
            ArrayNode twice =
                current instanceof ArrayNode array ? array.deepCopy() : NODES.arrayNode();
            if (twice.isEmpty()) {
              twice.add(values.value(schema.get("items"), path + "[0]", Set.of()));
            }
            twice.add(twice.get(0).deepCopy());
            return twice;
          });
    }
  }

  private void add(String path, String constraint, java.util.function.UnaryOperator<JsonNode> bad) {
    cases.add(new HostileCase(path, constraint, bad));
  }

  private static String number(double value) {
    return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
  }

  private static JsonNode number(double value, boolean integer) {
    return integer ? NODES.numberNode((long) value) : NODES.numberNode(value);
  }

  /**
   * A copy of {@code base} (the value at {@code root}) with the case's bad value at its path; every
   * parent on the path must exist in {@code base}.
   */
  public static JsonNode apply(JsonNode base, String root, HostileCase hostile) {
    JsonNode copy = base.deepCopy();
    List<Object> steps = steps(hostile.path().substring(root.length()));
    if (steps.isEmpty()) {
      return hostile.bad().apply(copy);
    }
    JsonNode parent = copy;
    for (Object step : steps.subList(0, steps.size() - 1)) {
      parent = step instanceof Integer index ? parent.get(index) : parent.get((String) step);
      if (parent == null) {
        throw new IllegalStateException("the drawn value has nothing at " + hostile.path());
      }
    }
    Object last = steps.get(steps.size() - 1);
    if (last instanceof Integer index) {
      ArrayNode array = (ArrayNode) parent;
      array.set(index, hostile.bad().apply(array.get(index)));
    } else {
      ObjectNode object = (ObjectNode) parent;
      JsonNode replaced = hostile.bad().apply(object.get((String) last));
      if (replaced == null) {
        object.remove((String) last);
      } else {
        object.set((String) last, replaced);
      }
    }
    return copy;
  }

  private static List<Object> steps(String relative) {
    List<Object> steps = new ArrayList<>();
    for (String part : relative.split("\\.", -1)) {
      if (part.isEmpty()) {
        continue;
      }
      int bracket = part.indexOf('[');
      steps.add(bracket < 0 ? part : part.substring(0, bracket));
      while (bracket >= 0) {
        int close = part.indexOf(']', bracket);
        steps.add(Integer.parseInt(part.substring(bracket + 1, close)));
        bracket = part.indexOf('[', close);
      }
    }
    if (!steps.isEmpty() && "".equals(steps.get(0))) {
      steps.remove(0);
    }
    return steps;
  }
}
