package dev.converge.crd.roundtrip.internal;

import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the API server stores for a value it accepts under a structural schema: unknown fields
 * pruned (unless preserved), nulls of non-nullable fields dropped, defaults filled into absent
 * fields (and into the defaults themselves). And JSON equality as the server means it: numbers by
 * value ({@code 3} and {@code 3.0} are one number once stored).
 */
public final class StoredForm {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private StoredForm() {}

  /** The value as the API server stores it. */
  public static JsonNode of(JsonNode value, JsonNode schema) {
    if (value.isObject()) {
      return object((ObjectNode) value, schema);
    }
    if (value.isArray() && schema.has("items")) {
      ArrayNode stored = NODES.arrayNode();
      value.forEach(item -> stored.add(item.isNull() ? item : of(item, schema.get("items"))));
      return stored;
    }
    return value.deepCopy();
  }

  private static JsonNode object(ObjectNode value, JsonNode schema) {
    boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    JsonNode properties = schema.get("properties");
    JsonNode additional = schema.get("additionalProperties");
    if (schema.path("x-kubernetes-embedded-resource").asBoolean(false) && properties == null) {
      return value.deepCopy();
    }
    ObjectNode stored = NODES.objectNode();
    for (Map.Entry<String, JsonNode> field : value.properties()) {
      JsonNode fieldSchema =
          properties != null && properties.has(field.getKey())
              ? properties.get(field.getKey())
              : additional != null && additional.isObject() ? additional : null;
      if (fieldSchema == null) {
        if (preserve) {
          stored.set(field.getKey(), field.getValue().deepCopy());
        }
        continue;
      }
      if (field.getValue().isNull() && !fieldSchema.path("nullable").asBoolean(false)) {
        continue;
      }
      stored.set(field.getKey(), of(field.getValue(), fieldSchema));
    }
    if (properties != null) {
      for (Map.Entry<String, JsonNode> property : properties.properties()) {
        if (!stored.has(property.getKey()) && property.getValue().has("default")) {
          stored.set(
              property.getKey(), of(property.getValue().get("default"), property.getValue()));
        }
      }
    }
    return stored;
  }

  /**
   * The first place where two JSON values differ (numbers compared by value), or empty when they
   * agree.
   */
  public static Optional<String> difference(JsonNode expected, JsonNode actual, String path) {
    if (expected.isNumber() && actual.isNumber()) {
      return expected.decimalValue().compareTo(actual.decimalValue()) == 0
          ? Optional.empty()
          : Optional.of(path + ": expected " + expected + ", was " + actual);
    }
    if (expected.isObject() && actual.isObject()) {
      for (String name : expected.propertyNames()) {
        if (!actual.has(name)) {
          return Optional.of(
              path + "." + name + ": expected " + expected.get(name) + ", was absent");
        }
        Optional<String> inner =
            difference(expected.get(name), actual.get(name), path + "." + name);
        if (inner.isPresent()) {
          return inner;
        }
      }
      for (String name : actual.propertyNames()) {
        if (!expected.has(name)) {
          return Optional.of(path + "." + name + ": expected absent, was " + actual.get(name));
        }
      }
      return Optional.empty();
    }
    if (expected.isArray() && actual.isArray()) {
      if (expected.size() != actual.size()) {
        return Optional.of(
            path
                + ": expected "
                + expected.size()
                + " items "
                + expected
                + ", was "
                + actual.size()
                + " "
                + actual);
      }
      Iterator<JsonNode> left = expected.iterator();
      Iterator<JsonNode> right = actual.iterator();
      for (int i = 0; left.hasNext(); i++) {
        Optional<String> inner = difference(left.next(), right.next(), path + "[" + i + "]");
        if (inner.isPresent()) {
          return inner;
        }
      }
      return Optional.empty();
    }
    return expected.equals(actual)
        ? Optional.empty()
        : Optional.of(path + ": expected " + expected + ", was " + actual);
  }
}
