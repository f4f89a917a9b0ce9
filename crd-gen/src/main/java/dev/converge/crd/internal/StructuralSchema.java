package dev.converge.crd.internal;

import dev.converge.crd.CrdGenerationException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns a victools JSON Schema (draft 2020-12, every object type under {@code $defs}) into a
 * Kubernetes structural schema (KEP-2335): references inlined, cycles cut off or reported, a {@code
 * type} on every node, {@code nullable} instead of a null type, {@code const} as a one-value {@code
 * enum}, boolean exclusive bounds, and only keywords that {@code apiextensions.k8s.io/v1} accepts.
 *
 * <p>Every error names the Java member (from {@link #JAVA_FIELD}) and the JSON path, and says what
 * to do.
 */
public final class StructuralSchema {

  /** Temporary keyword: the Java member a property comes from, for error messages. */
  static final String JAVA_FIELD = "x-converge-java-member";

  /** Temporary keyword: how deep a recursive type is expanded below this member. */
  static final String RECURSION_LIMIT = "x-converge-recursion-limit";

  /**
   * Temporary keyword: the member is {@code @Nullable}. Only then does the schema say {@code
   * nullable}; the null types victools derives (for example from {@code Optional}) are dropped,
   * because the API server prunes nulls of non-nullable fields, which is what an absent Optional
   * means.
   */
  static final String NULLABLE = "x-converge-nullable";

  /**
   * Temporary keyword: the Java type is an interface or abstract class, whose properties are
   * unknown.
   */
  static final String ABSTRACT_TYPE = "x-converge-abstract-type";

  /**
   * Temporary keyword: printer columns declared on this member (name, type, format, description,
   * priority).
   */
  static final String PRINTER_COLUMNS = "x-converge-printer-columns";

  /**
   * Temporary keyword: Jackson writes this Java type in a way the schema cannot follow (its class
   * name).
   */
  static final String UNDESCRIBABLE_TYPE = "x-converge-undescribable-type";

  /** Temporary keyword: warnings about this member, reported with its path. */
  static final String WARNINGS = "x-converge-warnings";

  /** Temporary keyword: the member is a selectable field. */
  static final String SELECTABLE = "x-converge-selectable";

  /**
   * Temporary keyword: the member is a primitive number (type, wrapper, the value it starts out
   * as).
   */
  static final String PRIMITIVE = "x-converge-primitive";

  static final String PRESERVE_UNKNOWN_FIELDS = "x-kubernetes-preserve-unknown-fields";
  static final String INT_OR_STRING = "x-kubernetes-int-or-string";

  private static final String DEFS = "$defs";
  private static final String DEFS_PREFIX = "#/$defs/";
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Keywords a v1 CRD schema accepts (JSONSchemaProps), besides the x-kubernetes extensions. */
  private static final Set<String> ALLOWED =
      Set.of(
          "type",
          "format",
          "title",
          "description",
          "default",
          "enum",
          "nullable",
          "minimum",
          "maximum",
          "exclusiveMinimum",
          "exclusiveMaximum",
          "multipleOf",
          "minLength",
          "maxLength",
          "pattern",
          "minItems",
          "maxItems",
          "uniqueItems",
          "minProperties",
          "maxProperties",
          "required",
          "properties",
          "additionalProperties",
          "items",
          "allOf",
          "anyOf",
          "oneOf",
          "not",
          "example",
          "externalDocs",
          "x-kubernetes-preserve-unknown-fields",
          "x-kubernetes-int-or-string",
          "x-kubernetes-embedded-resource",
          "x-kubernetes-list-type",
          "x-kubernetes-list-map-keys",
          "x-kubernetes-map-type",
          "x-kubernetes-validations");

  /** Keywords of the generated JSON Schema that carry nothing Kubernetes needs. */
  private static final Set<String> DROPPED =
      Set.of(
          "$schema",
          "$id",
          "$anchor",
          "$comment",
          "readOnly",
          "writeOnly",
          JAVA_FIELD,
          RECURSION_LIMIT,
          NULLABLE,
          ABSTRACT_TYPE,
          PRINTER_COLUMNS,
          UNDESCRIBABLE_TYPE,
          WARNINGS,
          SELECTABLE,
          PRIMITIVE);

  /** Keywords whose arrays add up when a property's own attributes meet its type's attributes. */
  private static final Set<String> CONCATENATED =
      Set.of("required", "x-kubernetes-validations", "oneOf");

  private final ObjectNode definitions;
  private final String rootTypeName;
  private final List<FieldColumn> columns = new ArrayList<>();
  private final List<String> warnings = new ArrayList<>();
  private final List<String> selectableFields = new ArrayList<>();

  /**
   * A printer column declared on a field.
   *
   * @param jsonPath the field's path, e.g. {@code .spec.replicas}
   * @param type integer, number, string, boolean or date, from the annotation or the field's schema
   */
  public record FieldColumn(
      String name, String jsonPath, String type, String format, String description, int priority) {}

  /**
   * The structural schema, the printer columns and selectable fields (JSON paths) its fields
   * declare, and warnings, each naming the Java member, the path and the fix.
   */
  public record Converted(
      ObjectNode schema,
      List<FieldColumn> columns,
      List<String> selectableFields,
      List<String> warnings) {}

  private StructuralSchema(ObjectNode definitions, String rootTypeName) {
    this.definitions = definitions;
    this.rootTypeName = rootTypeName;
  }

  /**
   * Turns victools' JSON Schema of one Java type into a Kubernetes structural schema.
   *
   * @param generated the victools output for one Java type
   * @param rootTypeName the Java type's simple name, for messages
   * @param rootPath where the schema sits in the resource, e.g. {@code spec}
   */
  public static Converted convert(ObjectNode generated, String rootTypeName, String rootPath) {
    ObjectNode copy = generated.deepCopy();
    JsonNode defs = copy.remove(DEFS);
    ObjectNode definitions = defs instanceof ObjectNode object ? object : NODES.objectNode();
    StructuralSchema pass = new StructuralSchema(definitions, rootTypeName);
    ObjectNode schema = pass.convert(copy, new Context(rootPath, rootTypeName, null, List.of()));
    return new Converted(
        schema,
        List.copyOf(pass.columns),
        List.copyOf(pass.selectableFields),
        List.copyOf(pass.warnings));
  }

  private record Context(
      String path, String javaMember, Integer recursionLimit, List<String> expanding) {
    Context property(String name) {
      return new Context(path + "." + name, javaMember, null, expanding);
    }

    Context nested(String suffix) {
      return new Context(path + suffix, javaMember, recursionLimit, expanding);
    }

    Context expandingAlso(String definition) {
      List<String> next = new ArrayList<>(expanding);
      next.add(definition);
      return new Context(path, javaMember, recursionLimit, List.copyOf(next));
    }

    Context withMarkers(ObjectNode node) {
      String member = node.has(JAVA_FIELD) ? node.get(JAVA_FIELD).asString() : javaMember;
      Integer limit =
          node.has(RECURSION_LIMIT)
              ? Integer.valueOf(node.get(RECURSION_LIMIT).asInt())
              : recursionLimit;
      return new Context(path, member, limit, expanding);
    }
  }

  private ObjectNode convert(ObjectNode input, Context outer) {
    ObjectNode node = input.deepCopy();
    Context context = outer;
    while (true) {
      if (node.has("allOf")) {
        node = mergeAllOf(node);
        continue;
      }
      context = context.withMarkers(node);
      if (node.has("$ref")) {
        ObjectNode resolved = resolveReference(node, context);
        if (resolved == null) {
          node = cutOff(node);
        } else {
          context = context.expandingAlso(referenceName(node, context));
          node = resolved;
        }
        continue;
      }
      if (node.has("anyOf") && !node.path(INT_OR_STRING).asBoolean(false)) {
        node = collapseAnyOf(node, context);
        continue;
      }
      break;
    }
    if (node.path(INT_OR_STRING).asBoolean(false)) {
      node.remove("type");
      node.remove("format");
    }
    if (node.has(UNDESCRIBABLE_TYPE)
        && !node.path(PRESERVE_UNKNOWN_FIELDS).asBoolean(false)
        && !node.path(INT_OR_STRING).asBoolean(false)) {
      throw fail(
          context,
          "has the type "
              + node.get(UNDESCRIBABLE_TYPE).asString()
              + ", which Jackson writes with a"
              + " serializer that does not declare its JSON (a custom serializer, or a @JsonValue that is a list or map),"
              + " so the schema cannot describe what fabric8 sends and the API server would refuse or prune it."
              + " Annotate the field with @PreserveUnknownFields (any value; validate it with @Rule) or @IntegerOrString,"
              + " or make the serializer declare its output (override acceptJsonFormatVisitor)");
    }
    normalizeType(node, context);
    if (node.has("const")) {
      node.set("enum", NODES.arrayNode().add(node.remove("const")));
    }
    booleanExclusiveBound(node, "exclusiveMinimum", "minimum");
    booleanExclusiveBound(node, "exclusiveMaximum", "maximum");
    checkPrimitiveStart(node, context);
    convertChildren(node, context);
    check(node, context);
    collectColumns(node, context);
    collectWarningsAndSelectable(node, context);
    if (node.path(NULLABLE).asBoolean(false)) {
      node.put("nullable", true);
    } else {
      node.remove("nullable");
    }
    for (String dropped : DROPPED) {
      node.remove(dropped);
    }
    return node;
  }

  /**
   * A primitive is always sent (fabric8 cannot leave it out), so a starting value that the bounds
   * refuse makes every object built in Java without setting the field invalid.
   */
  private void checkPrimitiveStart(ObjectNode node, Context context) {
    JsonNode primitive = node.get(PRIMITIVE);
    if (primitive == null) {
      return;
    }
    JsonNode initial = primitive.get("initial");
    String refused = null;
    if (node.has("minimum")) {
      int compared = initial.decimalValue().compareTo(node.get("minimum").decimalValue());
      boolean exclusive = node.path("exclusiveMinimum").asBoolean(false);
      if (compared < 0 || (compared == 0 && exclusive)) {
        refused = (exclusive ? "exclusive minimum " : "minimum ") + node.get("minimum");
      }
    }
    if (node.has("maximum")) {
      int compared = initial.decimalValue().compareTo(node.get("maximum").decimalValue());
      boolean exclusive = node.path("exclusiveMaximum").asBoolean(false);
      if (compared > 0 || (compared == 0 && exclusive)) {
        refused = (exclusive ? "exclusive maximum " : "maximum ") + node.get("maximum");
      }
    }
    if (refused != null) {
      String member = context.javaMember() == null ? rootTypeName : context.javaMember();
      warnings.add(
          member
              + " ("
              + context.path()
              + ") is the primitive "
              + primitive.get("type").asString()
              + " and starts out as "
              + initial
              + ", which its "
              + refused
              + " refuses: fabric8 always sends the"
              + " field, so the API server refuses every object built in Java without setting it. Use the wrapper"
              + " type ("
              + primitive.get("wrapper").asString()
              + ", absent when null) or initialise the field to a"
              + " valid value");
    }
  }

  private void collectWarningsAndSelectable(ObjectNode node, Context context) {
    String member = context.javaMember() == null ? rootTypeName : context.javaMember();
    for (JsonNode warning : node.path(WARNINGS)) {
      String text = member + " (" + context.path() + ") " + warning.asString();
      if (!warnings.contains(text)) {
        warnings.add(text);
      }
    }
    if (node.path(SELECTABLE).asBoolean(false)) {
      if (context.path().contains("[*]")) {
        throw fail(
            context,
            "has a @SelectableField inside a list or map; a field selector matches one value per"
                + " resource, so declare it on a field outside lists and maps");
      }
      String type = node.path("type").asString("");
      if (!List.of("string", "integer", "boolean").contains(type)) {
        throw fail(
            context,
            "has a @SelectableField but is "
                + (type.isEmpty() ? "not a scalar" : "a " + type)
                + "; the API server selects on string, integer and boolean fields only");
      }
      selectableFields.add("." + context.path());
    }
  }

  private void collectColumns(ObjectNode node, Context context) {
    JsonNode markers = node.get(PRINTER_COLUMNS);
    if (markers == null) {
      return;
    }
    if (context.path().contains("[*]")) {
      throw fail(
          context,
          "has a @PrinterColumn inside a list or map; a column shows one value per resource,"
              + " so declare it on a field outside lists and maps");
    }
    for (JsonNode marker : markers) {
      String type = marker.get("type").asString();
      if (type.isEmpty()) {
        String schemaType = node.path("type").asString("string");
        type =
            switch (schemaType) {
              case "integer", "number", "boolean" -> schemaType;
              default -> "date-time".equals(node.path("format").asString("")) ? "date" : "string";
            };
      }
      columns.add(
          new FieldColumn(
              marker.get("name").asString(),
              "." + context.path(),
              type,
              marker.get("format").asString(),
              marker.get("description").asString(),
              marker.get("priority").asInt()));
    }
  }

  // ---------------------------------------------------------------- references and cycles

  private String referenceName(ObjectNode node, Context context) {
    String reference = node.get("$ref").asString();
    if (!reference.startsWith(DEFS_PREFIX)) {
      throw fail(
          context, "refers to '" + reference + "', which is not a definition of this schema");
    }
    return reference.substring(DEFS_PREFIX.length());
  }

  /**
   * The referenced definition with this node's own attributes on top, or null when the cycle is cut
   * off.
   */
  private ObjectNode resolveReference(ObjectNode node, Context context) {
    String name = referenceName(node, context);
    JsonNode target = definitions.get(name);
    if (!(target instanceof ObjectNode definition)) {
      throw fail(context, "refers to a missing definition '" + name + "'");
    }
    long times = context.expanding().stream().filter(name::equals).count();
    if (times > 0) {
      if (context.recursionLimit() == null) {
        List<String> cycle =
            new ArrayList<>(
                context
                    .expanding()
                    .subList(context.expanding().indexOf(name), context.expanding().size()));
        cycle.add(name);
        throw fail(
            context,
            "its type refers back to itself ("
                + String.join(" -> ", cycle)
                + "), and a Kubernetes structural schema cannot be recursive. Break the cycle, or annotate the"
                + " field with @RecursionLimit(depth = n) to expand it n levels and accept any object below");
      }
      if (times > context.recursionLimit()) {
        return null;
      }
    }
    ObjectNode merged = definition.deepCopy();
    overlay(merged, node, Set.of("$ref"));
    return merged;
  }

  private static ObjectNode cutOff(ObjectNode reference) {
    ObjectNode node = NODES.objectNode();
    for (String kept : List.of("description", NULLABLE, JAVA_FIELD)) {
      if (reference.has(kept)) {
        node.set(kept, reference.get(kept));
      }
    }
    node.put("type", "object");
    node.put(PRESERVE_UNKNOWN_FIELDS, true);
    return node;
  }

  private static void overlay(ObjectNode target, ObjectNode source, Set<String> skipped) {
    for (Map.Entry<String, JsonNode> entry : source.properties()) {
      String key = entry.getKey();
      if (skipped.contains(key)) {
        continue;
      }
      JsonNode existing = target.get(key);
      if (CONCATENATED.contains(key)
          && existing instanceof ArrayNode existingArray
          && entry.getValue() instanceof ArrayNode added) {
        for (JsonNode value : added) {
          if (!key.equals("required") || !contains(existingArray, value)) {
            existingArray.add(value.deepCopy());
          }
        }
      } else {
        target.set(key, entry.getValue().deepCopy());
      }
    }
  }

  private static boolean contains(ArrayNode array, JsonNode value) {
    for (JsonNode element : array) {
      if (element.equals(value)) {
        return true;
      }
    }
    return false;
  }

  private static ObjectNode mergeAllOf(ObjectNode node) {
    ArrayNode parts = (ArrayNode) node.remove("allOf");
    ObjectNode merged = NODES.objectNode();
    for (JsonNode part : parts) {
      if (part instanceof ObjectNode object) {
        overlay(merged, object, Set.of());
      }
    }
    overlay(merged, node, Set.of());
    return merged;
  }

  private ObjectNode collapseAnyOf(ObjectNode node, Context context) {
    ArrayNode alternatives = (ArrayNode) node.remove("anyOf");
    List<ObjectNode> remaining = new ArrayList<>();
    boolean nullable = false;
    for (JsonNode alternative : alternatives) {
      if ("null".equals(alternative.path("type").asString(null)) && alternative.size() == 1) {
        nullable = true;
      } else {
        remaining.add((ObjectNode) alternative);
      }
    }
    if (remaining.size() != 1) {
      throw fail(
          context,
          "may take "
              + remaining.size()
              + " different shapes (anyOf), which a structural schema"
              + " cannot describe; use one type, or annotate it with @PreserveUnknownFields and validate with @Rule");
    }
    ObjectNode merged = remaining.get(0).deepCopy();
    overlay(merged, node, Set.of());
    if (nullable) {
      merged.put("nullable", true);
    }
    return merged;
  }

  // ---------------------------------------------------------------- keyword normalisation

  private void normalizeType(ObjectNode node, Context context) {
    JsonNode type = node.get("type");
    if (type instanceof ArrayNode types) {
      List<String> real = new ArrayList<>();
      for (JsonNode each : types) {
        if ("null".equals(each.asString())) {
          node.put("nullable", true);
        } else {
          real.add(each.asString());
        }
      }
      if (real.size() != 1) {
        throw fail(
            context, "has the types " + real + "; a structural schema needs exactly one type");
      }
      node.put("type", real.get(0));
    }
    if (!node.has("type") && !node.path(INT_OR_STRING).asBoolean(false)) {
      if (node.has("properties") || node.has("additionalProperties")) {
        node.put("type", "object");
      } else if (node.has("items")) {
        node.put("type", "array");
      } else if (node.has("enum")) {
        node.put("type", "string");
      } else if (!node.path(PRESERVE_UNKNOWN_FIELDS).asBoolean(false)) {
        throw fail(
            context,
            "has no type; give the field a concrete Java type, or annotate it with"
                + " @PreserveUnknownFields to accept any value");
      }
    }
  }

  private static void booleanExclusiveBound(ObjectNode node, String exclusive, String inclusive) {
    JsonNode bound = node.get(exclusive);
    if (bound != null && bound.isNumber()) {
      node.set(inclusive, bound);
      node.put(exclusive, true);
    }
  }

  private void convertChildren(ObjectNode node, Context context) {
    JsonNode properties = node.get("properties");
    if (properties instanceof ObjectNode object) {
      ObjectNode converted = NODES.objectNode();
      for (Map.Entry<String, JsonNode> property : object.properties()) {
        converted.set(
            property.getKey(),
            convert((ObjectNode) property.getValue(), context.property(property.getKey())));
      }
      node.set("properties", converted);
    }
    JsonNode items = node.get("items");
    if (items instanceof ArrayNode) {
      throw fail(
          context,
          "is a tuple (items as an array), which Kubernetes does not support; use a list of one"
              + " type or an object");
    }
    if (items instanceof ObjectNode object) {
      node.set("items", convert(object, context.nested("[*]")));
    }
    JsonNode additional = node.get("additionalProperties");
    if (additional != null && additional.isBoolean()) {
      node.remove("additionalProperties");
      if (additional.asBoolean()) {
        node.put(PRESERVE_UNKNOWN_FIELDS, true);
      }
    } else if (additional instanceof ObjectNode object) {
      node.set("additionalProperties", convert(object, context.nested("[*]")));
    }
    for (String combinator : List.of("oneOf", "not")) {
      if (node.has(combinator)) {
        checkValueValidationOnly(node.get(combinator), combinator, context);
      }
    }
  }

  private void checkValueValidationOnly(JsonNode combinator, String keyword, Context context) {
    Iterator<JsonNode> parts =
        combinator.isArray() ? combinator.iterator() : List.of(combinator).iterator();
    while (parts.hasNext()) {
      JsonNode part = parts.next();
      for (String forbidden :
          List.of("$ref", "type", "description", "default", "nullable", PRESERVE_UNKNOWN_FIELDS)) {
        if (part.has(forbidden)) {
          throw fail(
              context,
              "has '"
                  + forbidden
                  + "' inside "
                  + keyword
                  + "; in a structural schema "
                  + keyword
                  + " may only validate values (required, enum, bounds), never declare types");
        }
      }
    }
  }

  // ---------------------------------------------------------------- structural checks

  private void check(ObjectNode node, Context context) {
    for (String key : List.copyOf(node.propertyNames())) {
      if (!ALLOWED.contains(key) && !DROPPED.contains(key)) {
        throw fail(
            context,
            "produces the JSON Schema keyword '"
                + key
                + "', which apiextensions.k8s.io/v1 does not"
                + " accept; remove the annotation that adds it");
      }
    }
    String type = node.path("type").asString("");
    if (node.has(ABSTRACT_TYPE) && !node.path(PRESERVE_UNKNOWN_FIELDS).asBoolean(false)) {
      throw fail(
          context,
          "has the abstract type "
              + node.get(ABSTRACT_TYPE).asString()
              + ", whose properties the"
              + " generator cannot know, so the API server would prune everything in it; use a concrete class, or"
              + " annotate the field with @PreserveUnknownFields");
    }
    if (node.has("properties") && node.has("additionalProperties")) {
      throw fail(
          context,
          "has both named properties and additionalProperties; Kubernetes allows one or the other."
              + " Use a Map field or a class, not both");
    }
    if (type.equals("array") && !node.has("items")) {
      throw fail(context, "is a list without an element type; declare it as List<SomeType>");
    }
    if (node.path("uniqueItems").asBoolean(false)) {
      throw fail(
          context, "sets uniqueItems, which Kubernetes forbids; use @ListType(ListType.Kind.SET)");
    }
    if (node.has("enum") && type.equals("string")) {
      for (JsonNode value : node.get("enum")) {
        if (!value.isString()) {
          throw fail(context, "is a string whose allowed values include the non-string " + value);
        }
      }
    }
    checkListType(node, context, type);
    if (node.has("x-kubernetes-map-type") && !type.equals("object")) {
      throw fail(
          context, "has @MapType but is a " + type + "; it applies to maps and objects only");
    }
  }

  private void checkListType(ObjectNode node, Context context, String type) {
    String listType = node.path("x-kubernetes-list-type").asString(null);
    boolean hasKeys = node.has("x-kubernetes-list-map-keys");
    if (listType == null) {
      return;
    }
    if (!type.equals("array")) {
      throw fail(context, "has @ListType but is a " + type + "; it applies to lists only");
    }
    JsonNode items = node.get("items");
    if (listType.equals("map")) {
      if (!hasKeys) {
        throw fail(
            context,
            "is @ListType(MAP) without keys; name the item properties that identify an entry,"
                + " e.g. @ListType(value = ListType.Kind.MAP, keys = \"name\")");
      }
      if (!"object".equals(items.path("type").asString(""))) {
        throw fail(context, "is @ListType(MAP) but its items are not objects");
      }
      for (JsonNode key : node.get("x-kubernetes-list-map-keys")) {
        JsonNode property = items.path("properties").get(key.asString());
        if (property == null) {
          throw fail(
              context,
              "names the list-map key '" + key.asString() + "', which its items do not have");
        }
        boolean required =
            items.has("required") && contains((ArrayNode) items.get("required"), key);
        if (!required && !property.has("default")) {
          throw fail(
              context,
              "names the list-map key '"
                  + key.asString()
                  + "', which must be required or"
                  + " defaulted in the item type; annotate that field with @Required or @Default");
        }
      }
    } else if (hasKeys) {
      throw fail(
          context,
          "has list-map keys but list type '" + listType + "'; keys need ListType.Kind.MAP");
    } else if (listType.equals("set") && items.path("type").asString("").equals("object")) {
      throw fail(
          context,
          "is @ListType(SET) of objects; sets hold scalars, use ListType.Kind.MAP with keys");
    }
  }

  private CrdGenerationException fail(Context context, String reason) {
    String member = context.javaMember() == null ? rootTypeName : context.javaMember();
    return new CrdGenerationException(member + " (" + context.path() + ") " + reason);
  }
}
