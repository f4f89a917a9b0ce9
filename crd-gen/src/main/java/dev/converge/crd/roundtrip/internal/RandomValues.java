package dev.converge.crd.roundtrip.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Random JSON values that a structural schema accepts: every bound, length, pattern, format, enum,
 * item count, required property, exactly-one-of, set and list-map key it declares is honoured. CEL
 * rules cannot be honoured in general; the caller learns from the API server which draws they
 * refuse.
 *
 * <p>Paths are written as the API server writes them: {@code spec.ports[0].name}.
 */
public final class RandomValues {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final int ATTEMPTS = 200;

  private final Random random;

  public RandomValues(Random random) {
    this.random = random;
  }

  /**
   * A value for {@code schema} at {@code path}; every path in {@code forced} (and each of its
   * parents) is present, with at least one item in lists along it.
   */
  public JsonNode value(JsonNode schema, String path, Set<String> forced) {
    if (schema.path("nullable").asBoolean(false)
        && !forcedHere(path, forced)
        && random.nextInt(10) == 0) {
      return NODES.nullNode();
    }
    if (schema.has("enum")) {
      JsonNode values = schema.get("enum");
      return values.get(random.nextInt(values.size())).deepCopy();
    }
    if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
      if (schema.has("pattern") || random.nextBoolean()) {
        return schema.has("pattern")
            ? NODES.stringNode(string(schema, path))
            : NODES.stringNode(random.nextInt(101) + "%");
      }
      return NODES.numberNode(random.nextInt(1000));
    }
    String type = schema.path("type").asString("");
    return switch (type) {
      case "object" -> object(schema, path, forced);
      case "array" -> array(schema, path, forced);
      case "string" -> NODES.stringNode(string(schema, path));
      case "integer" -> NODES.numberNode(integer(schema));
      case "number" -> NODES.numberNode(number(schema));
      case "boolean" -> NODES.booleanNode(random.nextBoolean());
      default -> anyValue(2);
    };
  }

  private static boolean forcedHere(String path, Set<String> forced) {
    return forced.stream()
        .anyMatch(f -> f.equals(path) || f.startsWith(path + ".") || f.startsWith(path + "["));
  }

  private JsonNode object(JsonNode schema, String path, Set<String> forced) {
    ObjectNode object = NODES.objectNode();
    if (schema.path("x-kubernetes-embedded-resource").asBoolean(false)) {
      object.put("apiVersion", "v1");
      object.put("kind", "ConfigMap");
      object.putObject("metadata").put("name", "embedded-" + random.nextInt(1000));
      object.putObject("data").put("key", "value-" + random.nextInt(1000));
      return object;
    }
    JsonNode properties = schema.get("properties");
    if (properties == null || properties.isEmpty()) {
      JsonNode additional = schema.get("additionalProperties");
      if (additional != null && additional.isObject()) {
        int min = schema.path("minProperties").asInt(0);
        int max = schema.path("maxProperties").asInt(min + 3);
        int count =
            forcedHere(path, forced) ? Math.max(min, 1) : between(min, Math.min(max, min + 3));
        for (int i = 0; i < count; i++) {
          String key = "key" + i;
          object.set(key, value(additional, path + "." + key, forced));
        }
      } else if (schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
        object.put("field" + random.nextInt(10), "value-" + random.nextInt(100));
        if (random.nextBoolean()) {
          object.putObject("nested").put("number", random.nextInt(100));
        }
      }
      return object;
    }
    Set<String> excluded = new HashSet<>();
    Set<String> chosen = new HashSet<>();
    for (JsonNode alternative : schema.path("oneOf")) {
      // @ExactlyOneOf: one alternative's properties, none of the others'.
      List<String> names = new ArrayList<>();
      alternative.path("required").forEach(name -> names.add(name.asString()));
      chosen.addAll(names);
    }
    if (!chosen.isEmpty()) {
      List<JsonNode> alternatives = new ArrayList<>();
      schema.get("oneOf").forEach(alternatives::add);
      JsonNode pick =
          alternatives.stream()
              .filter(
                  a ->
                      a.path("required")
                          .valueStream()
                          .anyMatch(n -> forcedHere(path + "." + n.asString(), forced)))
              .findFirst()
              .orElse(alternatives.get(random.nextInt(alternatives.size())));
      excluded.addAll(chosen);
      pick.path("required").forEach(name -> excluded.remove(name.asString()));
      chosen.clear();
      pick.path("required").forEach(name -> chosen.add(name.asString()));
    }
    Set<String> required = new HashSet<>(chosen);
    schema.path("required").forEach(name -> required.add(name.asString()));
    for (Map.Entry<String, JsonNode> property : properties.properties()) {
      String name = property.getKey();
      String childPath = path + "." + name;
      if (excluded.contains(name)) {
        continue;
      }
      if (required.contains(name) || forcedHere(childPath, forced) || random.nextBoolean()) {
        object.set(name, value(property.getValue(), childPath, forced));
      }
    }
    return object;
  }

  private JsonNode array(JsonNode schema, String path, Set<String> forced) {
    JsonNode items = schema.get("items");
    int min = schema.path("minItems").asInt(0);
    int max = schema.has("maxItems") ? schema.get("maxItems").asInt() : min + 3;
    int count =
        between(
            Math.max(min, forcedHere(path, forced) ? 1 : 0), Math.max(min, Math.min(max, min + 3)));
    String listType = schema.path("x-kubernetes-list-type").asString("atomic");
    List<String> keys = new ArrayList<>();
    schema.path("x-kubernetes-list-map-keys").forEach(key -> keys.add(key.asString()));
    ArrayNode array = NODES.arrayNode();
    Set<String> identities = new HashSet<>();
    int attempts = 0;
    while (array.size() < count) {
      if (++attempts > ATTEMPTS) {
        if (array.size() >= min) {
          break; // the items allow only so many distinct values (an enum of two)
        }
        throw new IllegalStateException(
            path
                + ": cannot draw "
                + min
                + " distinct items (list type "
                + listType
                + "); the item schema allows too few values");
      }
      String itemPath = path + "[" + array.size() + "]";
      JsonNode item = value(items, itemPath, forced);
      String identity =
          switch (listType) {
            case "set" -> item.toString();
            case "map" -> identity(item, items, keys);
            default -> String.valueOf(attempts);
          };
      if (identities.add(identity)) {
        array.add(item);
      }
    }
    return array;
  }

  /**
   * The list-map key of an item, with absent keys at their defaults, as the API server compares
   * them.
   */
  static String identity(JsonNode item, JsonNode itemSchema, List<String> keys) {
    StringBuilder identity = new StringBuilder();
    for (String key : keys) {
      JsonNode value =
          item.has(key) ? item.get(key) : itemSchema.path("properties").path(key).path("default");
      identity.append(value).append('\u0000');
    }
    return identity.toString();
  }

  private String string(JsonNode schema, String path) {
    int minLength = schema.path("minLength").asInt(0);
    int maxLength = schema.has("maxLength") ? schema.get("maxLength").asInt() : Integer.MAX_VALUE;
    String format = schema.path("format").asString("");
    String pattern = schema.path("pattern").asString(null);
    Pattern compiled = pattern == null ? null : Pattern.compile(pattern);
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      String candidate =
          pattern != null
              ? RegexSampler.sample(pattern, random)
              : formatted(format, minLength, maxLength);
      if (candidate.length() >= minLength
          && candidate.length() <= maxLength
          && (compiled == null || compiled.matcher(candidate).find())) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        path
            + ": cannot draw a string of length "
            + minLength
            + ".."
            + maxLength
            + (pattern == null ? "" : " matching '" + pattern + "'")
            + (format.isEmpty() ? "" : " in format " + format));
  }

  private String formatted(String format, int minLength, int maxLength) {
    return switch (format) {
      case "date-time" ->
          Instant.ofEpochSecond(1_600_000_000L + random.nextInt(200_000_000)).toString();
      case "date" -> LocalDate.ofEpochDay(18_000 + random.nextInt(5_000)).toString();
      case "duration" ->
          (1 + random.nextInt(23)) + "h" + random.nextInt(60) + "m" + random.nextInt(60) + "s";
      case "byte" -> Base64.getEncoder().encodeToString(randomBytes());
      case "uuid" -> new UUID(random.nextLong(), random.nextLong()).toString();
      case "hostname" -> "host-" + random.nextInt(1000) + ".example.com";
      case "email" -> "user" + random.nextInt(1000) + "@example.com";
      case "ipv4" ->
          random.nextInt(256)
              + "."
              + random.nextInt(256)
              + "."
              + random.nextInt(256)
              + "."
              + random.nextInt(256);
      case "", "password" ->
          letters(between(minLength, (int) Math.min(maxLength, minLength + 12L)));
      default ->
          throw new IllegalStateException(
              "no random values for the string format '" + format + "'");
    };
  }

  private byte[] randomBytes() {
    byte[] bytes = new byte[between(0, 12)];
    random.nextBytes(bytes);
    return bytes;
  }

  private String letters(int length) {
    String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-";
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < length; i++) {
      text.append(
          alphabet.charAt(random.nextInt(i == 0 || i == length - 1 ? 36 : alphabet.length())));
    }
    return text.toString();
  }

  private long integer(JsonNode schema) {
    long min = schema.has("minimum") ? schema.get("minimum").asLong() : -1000;
    long max = schema.has("maximum") ? schema.get("maximum").asLong() : 1000;
    if (schema.path("exclusiveMinimum").asBoolean(false)) {
      min++;
    }
    if (schema.path("exclusiveMaximum").asBoolean(false)) {
      max--;
    }
    if ("int64".equals(schema.path("format").asString(""))
        && !schema.has("minimum")
        && !schema.has("maximum")
        && random.nextInt(4) == 0) {
      return random.nextLong() >> 12;
    }
    if (min > max) {
      throw new IllegalStateException("no integer lies between " + min + " and " + max);
    }
    return min + (long) (random.nextDouble() * (max - min + 1));
  }

  private BigDecimal number(JsonNode schema) {
    double min = schema.has("minimum") ? schema.get("minimum").asDouble() : -1000;
    double max = schema.has("maximum") ? schema.get("maximum").asDouble() : 1000;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      BigDecimal value =
          BigDecimal.valueOf(min + random.nextDouble() * (max - min))
              .setScale(3, RoundingMode.HALF_UP);
      double v = value.doubleValue();
      boolean aboveMin = schema.path("exclusiveMinimum").asBoolean(false) ? v > min : v >= min;
      boolean belowMax = schema.path("exclusiveMaximum").asBoolean(false) ? v < max : v <= max;
      if (aboveMin && belowMax) {
        return value.stripTrailingZeros();
      }
    }
    throw new IllegalStateException("no number lies between " + min + " and " + max);
  }

  private JsonNode anyValue(int depth) {
    return switch (random.nextInt(depth > 0 ? 4 : 3)) {
      case 0 -> NODES.stringNode("any-" + random.nextInt(100));
      case 1 -> NODES.numberNode(random.nextInt(100));
      case 2 -> NODES.booleanNode(random.nextBoolean());
      default -> {
        ObjectNode object = NODES.objectNode();
        object.set("inner", anyValue(depth - 1));
        yield object;
      }
    };
  }

  private int between(int min, int max) {
    return max <= min ? min : min + random.nextInt(max - min + 1);
  }

  /** The random source, for choices the caller makes with the same seed. */
  public Random random() {
    return random;
  }
}
