package dev.converge.crd.internal;

import com.fasterxml.classmate.ResolvedType;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.MemberScope;
import com.github.victools.jsonschema.generator.MethodScope;
import com.github.victools.jsonschema.generator.Module;
import com.github.victools.jsonschema.generator.SchemaGenerationContext;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigPart;
import com.github.victools.jsonschema.generator.TypeScope;
import dev.converge.crd.CrdGenerationException;
import dev.converge.crd.annotation.AllowedValues;
import dev.converge.crd.annotation.Default;
import dev.converge.crd.annotation.Description;
import dev.converge.crd.annotation.ExactlyOneOf;
import dev.converge.crd.annotation.Format;
import dev.converge.crd.annotation.IntegerOrString;
import dev.converge.crd.annotation.Items;
import dev.converge.crd.annotation.Length;
import dev.converge.crd.annotation.ListType;
import dev.converge.crd.annotation.MapType;
import dev.converge.crd.annotation.Matches;
import dev.converge.crd.annotation.Maximum;
import dev.converge.crd.annotation.Minimum;
import dev.converge.crd.annotation.Nullable;
import dev.converge.crd.annotation.PreserveUnknownFields;
import dev.converge.crd.annotation.PrinterColumn;
import dev.converge.crd.annotation.RecursionLimit;
import dev.converge.crd.annotation.Required;
import dev.converge.crd.annotation.Rule;
import dev.converge.crd.annotation.Rules;
import dev.converge.crd.annotation.SelectableField;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Quantity;
import java.lang.annotation.Annotation;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * The victools module that teaches the generator Kubernetes: fixed mappings for Java and fabric8
 * types, and Converge's annotations turned into schema keywords. Keywords that the later structural
 * pass needs but Kubernetes must never see are written under {@link StructuralSchema#JAVA_FIELD}
 * and {@link StructuralSchema#RECURSION_LIMIT} and removed there.
 */
public final class KubernetesSchemaModule implements Module {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper JSON = JsonMapper.builder().build();

  /**
   * A resource.Quantity as the API server parses it: a signed decimal number with an optional
   * binary (Ki..Ei) or decimal (n, u, m, k, M..E) suffix or a decimal exponent. Applies to string
   * values only, so plain numbers stay valid.
   */
  public static final String QUANTITY_PATTERN =
      "^[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?[0-9]+)?$";

  /**
   * A java.time.Duration as Jackson writes it and {@code Duration.parse} reads it (ISO-8601, for
   * example {@code PT1H30M} or {@code PT-0.5S}); not the Go form ({@code 1h30m}) of the {@code
   * duration} format.
   */
  public static final String ISO_DURATION_PATTERN;

  static {
    String hours = "[-+]?[0-9]+H";
    String minutes = "[-+]?[0-9]+M";
    String seconds = "[-+]?[0-9]+([.,][0-9]{0,9})?S";
    // T followed by at least one of hours, minutes, seconds, in that order
    String time =
        "T(" + hours + "(" + minutes + ")?(" + seconds + ")?|" + minutes + "(" + seconds + ")?|"
            + seconds + ")";
    ISO_DURATION_PATTERN = "^[-+]?P([-+]?[0-9]+D(" + time + ")?|" + time + ")$";
  }

  /** Base64 with padding, as Jackson writes a byte[]; the empty string for an empty array. */
  public static final String BASE64_PATTERN =
      "^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$";

  /**
   * A java.time.LocalTime as Jackson writes it and {@code LocalTime.parse} reads it ({@code 03:04},
   * {@code 03:04:05.5}).
   */
  public static final String LOCAL_TIME_PATTERN =
      "^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9]([.][0-9]{1,9})?)?$";

  private final Class<?> rootResource;
  private final KubernetesModelSemantics upstream;

  /**
   * @param rootResource the custom resource class being generated; never treated as an embedded
   *     object
   */
  public KubernetesSchemaModule(Class<?> rootResource) {
    this.rootResource = rootResource;
    this.upstream = KubernetesModelSemantics.bundled();
  }

  @Override
  public void applyToConfigBuilder(SchemaGeneratorConfigBuilder builder) {
    builder.forTypesInGeneral().withCustomDefinitionProvider(this::fixedDefinition);
    builder.forTypesInGeneral().withTypeAttributeOverride(this::typeAttributes);
    applyToMembers(builder.forFields());
    applyToMembers(builder.forMethods());
  }

  private <M extends MemberScope<?, ?>> void applyToMembers(SchemaGeneratorConfigPart<M> part) {
    part.withRequiredCheck(
        member -> annotation(member, Required.class) != null || upstreamRequired(member));
    part.withInstanceAttributeOverride(this::memberAttributes);
  }

  // ---------------------------------------------------------------- built-in types embedded in a
  // resource

  private Optional<KubernetesModelSemantics.Type> upstreamType(MemberScope<?, ?> member) {
    if (member.isFakeContainerItemScope()) {
      return Optional.empty();
    }
    return upstream.of(member.getDeclaringType().getErasedType());
  }

  private boolean upstreamRequired(MemberScope<?, ?> member) {
    return upstreamType(member)
        .map(type -> type.required().contains(member.getSchemaPropertyName()))
        .orElse(false);
  }

  /**
   * A property of a fabric8 model class gets what the API server declares for it: list type and
   * keys, map type, a scalar default ({@code protocol: TCP}) and a string format ({@code
   * date-time}), so it merges under server-side apply as it does in the built-in resource.
   */
  private void upstreamAttributes(ObjectNode node, MemberScope<?, ?> member) {
    Optional<KubernetesModelSemantics.Property> property =
        upstreamType(member).map(type -> type.properties().get(member.getSchemaPropertyName()));
    if (property.isEmpty()) {
      return;
    }
    KubernetesModelSemantics.Property semantics = property.get();
    semantics.listType().ifPresent(listType -> node.put("x-kubernetes-list-type", listType));
    if (!semantics.listMapKeys().isEmpty()) {
      ArrayNode keys = node.putArray("x-kubernetes-list-map-keys");
      semantics.listMapKeys().forEach(keys::add);
    }
    semantics.mapType().ifPresent(mapType -> node.put("x-kubernetes-map-type", mapType));
    semantics.defaultValue().ifPresent(value -> node.set("default", value.deepCopy()));
    semantics
        .format()
        .filter(format -> member.getType().getErasedType() == String.class)
        .ifPresent(format -> node.put("format", format));
  }

  // ---------------------------------------------------------------- fixed type mappings

  private CustomDefinition fixedDefinition(ResolvedType type, SchemaGenerationContext context) {
    ObjectNode node = fixedSchema(type);
    return node == null
        ? null
        : new CustomDefinition(
            node, CustomDefinition.DefinitionType.INLINE, CustomDefinition.AttributeInclusion.YES);
  }

  private ObjectNode fixedSchema(ResolvedType type) {
    Class<?> raw = type.getErasedType();
    if (raw == IntOrString.class) {
      return intOrString();
    }
    if (raw == Quantity.class) {
      ObjectNode quantity = intOrString();
      quantity.put("pattern", QUANTITY_PATTERN);
      return quantity;
    }
    if (raw == io.fabric8.kubernetes.api.model.Duration.class) {
      // fabric8's metav1.Duration is written in Go's form, which the duration format checks.
      return typed("string", "duration");
    }
    if (raw == Duration.class) {
      ObjectNode duration = typed("string", null);
      duration.put("pattern", ISO_DURATION_PATTERN);
      return duration;
    }
    if (raw == String.class) {
      return typed("string", null);
    }
    if (raw == char.class || raw == Character.class) {
      ObjectNode character = typed("string", null);
      character.put("minLength", 1);
      character.put("maxLength", 1);
      return character;
    }
    if (raw == int.class || raw == Integer.class) {
      return typed("integer", "int32");
    }
    if (raw == short.class || raw == Short.class || raw == byte.class || raw == Byte.class) {
      // Jackson refuses a number outside the Java type's range, so the schema does too.
      boolean isShort = raw == short.class || raw == Short.class;
      ObjectNode small = typed("integer", "int32");
      small.put("minimum", isShort ? Short.MIN_VALUE : Byte.MIN_VALUE);
      small.put("maximum", isShort ? Short.MAX_VALUE : Byte.MAX_VALUE);
      return small;
    }
    if (raw == long.class || raw == Long.class) {
      return typed("integer", "int64");
    }
    if (raw == BigInteger.class) {
      return typed("integer", null);
    }
    if (raw == float.class || raw == Float.class) {
      return typed("number", "float");
    }
    if (raw == double.class || raw == Double.class) {
      return typed("number", "double");
    }
    if (raw == BigDecimal.class) {
      return typed("number", null);
    }
    if (raw == boolean.class || raw == Boolean.class) {
      return typed("boolean", null);
    }
    if (raw == byte[].class) {
      // Jackson writes base64 with padding, and "" for an empty array, which the byte format
      // refuses.
      ObjectNode bytes = typed("string", null);
      bytes.put("pattern", BASE64_PATTERN);
      return bytes;
    }
    if (raw == Instant.class || raw == OffsetDateTime.class || raw == ZonedDateTime.class) {
      return typed("string", "date-time");
    }
    if (raw == LocalDate.class) {
      return typed("string", "date");
    }
    if (raw == LocalDateTime.class) {
      return typed("string", null);
    }
    if (raw == java.time.LocalTime.class) {
      ObjectNode time = typed("string", null);
      time.put("pattern", LOCAL_TIME_PATTERN);
      return time;
    }
    if (raw == UUID.class) {
      return typed("string", "uuid");
    }
    if (raw == ObjectMeta.class) {
      // Nested metadata (a pod template's labels, for example) must survive pruning; the resource's
      // own
      // metadata is declared by the API server and never reaches this module.
      ObjectNode metadata = typed("object", null);
      metadata.put(StructuralSchema.PRESERVE_UNKNOWN_FIELDS, true);
      return metadata;
    }
    if (raw == Object.class || JsonNode.class.isAssignableFrom(raw)) {
      ObjectNode any = NODES.objectNode();
      any.put(StructuralSchema.PRESERVE_UNKNOWN_FIELDS, true);
      return any;
    }
    if (Map.class.isAssignableFrom(raw) && untypedMap(type)) {
      ObjectNode object = typed("object", null);
      object.put(StructuralSchema.PRESERVE_UNKNOWN_FIELDS, true);
      return object;
    }
    if (HasMetadata.class.isAssignableFrom(raw) && raw != rootResource) {
      ObjectNode embedded = typed("object", null);
      embedded.put("x-kubernetes-embedded-resource", true);
      embedded.put(StructuralSchema.PRESERVE_UNKNOWN_FIELDS, true);
      return embedded;
    }
    if ((raw.isInterface() || Modifier.isAbstract(raw.getModifiers()))
        && !raw.isPrimitive()
        && !raw.isArray()
        && !raw.isEnum()
        && !raw.getName().startsWith("java.")) {
      // Subtypes are not looked up, so the properties are unknown; StructuralSchema reports it
      // unless the
      // member preserves unknown fields.
      ObjectNode unknown = typed("object", null);
      unknown.put(StructuralSchema.ABSTRACT_TYPE, raw.getName());
      return unknown;
    }
    return serializedShape(type);
  }

  /**
   * For a class the generator would otherwise expand field by field, what Jackson's serializer
   * writes: an object of properties (expanded as usual), a scalar (described as that scalar), or
   * something the schema cannot follow (reported by StructuralSchema with the member, unless it
   * preserves unknown fields).
   */
  private static ObjectNode serializedShape(ResolvedType type) {
    Class<?> raw = type.getErasedType();
    if (raw.isPrimitive()
        || raw.isArray()
        || raw.isEnum()
        || raw == Object.class
        || java.util.Collection.class.isAssignableFrom(raw)
        || Map.class.isAssignableFrom(raw)
        || raw.getName().startsWith("java.util.Optional")) {
      return null;
    }
    return switch (SerializedShape.of(raw)) {
      case OBJECT -> null;
      case STRING -> typed("string", null);
      case INTEGER -> typed("integer", null);
      case NUMBER -> typed("number", null);
      case BOOLEAN -> typed("boolean", null);
      case ARRAY, MAP, UNKNOWN -> {
        ObjectNode unknown = NODES.objectNode();
        unknown.put(StructuralSchema.UNDESCRIBABLE_TYPE, raw.getName());
        yield unknown;
      }
    };
  }

  private static boolean untypedMap(ResolvedType mapType) {
    List<ResolvedType> parameters = mapType.typeParametersFor(Map.class);
    return parameters == null
        || parameters.size() < 2
        || parameters.get(1).getErasedType() == Object.class;
  }

  private static ObjectNode typed(String type, String format) {
    ObjectNode node = NODES.objectNode();
    node.put("type", type);
    if (format != null) {
      node.put("format", format);
    }
    return node;
  }

  static ObjectNode intOrString() {
    ObjectNode node = NODES.objectNode();
    ArrayNode anyOf = node.putArray("anyOf");
    anyOf.addObject().put("type", "integer");
    anyOf.addObject().put("type", "string");
    node.put(StructuralSchema.INT_OR_STRING, true);
    return node;
  }

  // ---------------------------------------------------------------- type-level annotations

  private void typeAttributes(ObjectNode node, TypeScope scope, SchemaGenerationContext context) {
    Class<?> raw = scope.getType().getErasedType();
    if (raw.isPrimitive() || raw.isArray() || raw.getName().startsWith("java.")) {
      return;
    }
    Description description = raw.getAnnotation(Description.class);
    if (description != null) {
      node.put("description", description.value());
    }
    addRules(node, raw.getAnnotationsByType(Rule.class));
    MapType mapType = raw.getAnnotation(MapType.class);
    if (mapType != null) {
      node.put("x-kubernetes-map-type", mapType.value().name().toLowerCase(Locale.ROOT));
    }
    if (raw.isAnnotationPresent(PreserveUnknownFields.class)) {
      node.put(StructuralSchema.PRESERVE_UNKNOWN_FIELDS, true);
    }
    ExactlyOneOf oneOf = raw.getAnnotation(ExactlyOneOf.class);
    if (oneOf != null) {
      ArrayNode alternatives = node.putArray("oneOf");
      for (String property : oneOf.value()) {
        alternatives.addObject().putArray("required").add(property);
      }
    }
  }

  // ---------------------------------------------------------------- member-level annotations

  private void memberAttributes(
      ObjectNode node, MemberScope<?, ?> member, SchemaGenerationContext context) {
    node.put(StructuralSchema.JAVA_FIELD, javaName(member));
    Description description = annotation(member, Description.class);
    if (description != null) {
      node.put("description", description.value());
    }
    if (annotation(member, Nullable.class) != null) {
      node.put(StructuralSchema.NULLABLE, true);
    }
    Minimum minimum = annotation(member, Minimum.class);
    if (minimum != null) {
      putNumber(node, "minimum", minimum.value());
      if (minimum.exclusive()) {
        node.put("exclusiveMinimum", true);
      }
    }
    Maximum maximum = annotation(member, Maximum.class);
    if (maximum != null) {
      putNumber(node, "maximum", maximum.value());
      if (maximum.exclusive()) {
        node.put("exclusiveMaximum", true);
      }
    }
    Length length = annotation(member, Length.class);
    if (length != null) {
      putBound(node, "minLength", length.min());
      putBound(node, "maxLength", length.max());
    }
    Items items = annotation(member, Items.class);
    if (items != null) {
      boolean map = Map.class.isAssignableFrom(member.getType().getErasedType());
      putBound(node, map ? "minProperties" : "minItems", items.min());
      putBound(node, map ? "maxProperties" : "maxItems", items.max());
    }
    Matches matches = annotation(member, Matches.class);
    if (matches != null) {
      node.put("pattern", matches.value());
    }
    Format format = annotation(member, Format.class);
    if (format != null) {
      node.put("format", format.value());
    }
    AllowedValues allowed = annotation(member, AllowedValues.class);
    if (allowed != null) {
      ArrayNode values = node.putArray("enum");
      for (String value : allowed.value()) {
        values.add(value);
      }
    }
    Default defaultValue = annotation(member, Default.class);
    if (defaultValue != null) {
      node.set("default", parseDefault(member, defaultValue.value()));
      if (member.getType().getErasedType().isPrimitive()
          && !member.isFakeContainerItemScope()
          && !excludesDefaultValues(member)
          && !initialisedToDefault(member, node.get("default"))) {
        warn(
            node,
            "has @Default(\""
                + defaultValue.value()
                + "\") on the primitive "
                + member.getType().getErasedType().getName()
                + ", which never takes effect for objects written from"
                + " Java: fabric8 always sends the field ("
                + zeroOf(member.getType().getErasedType())
                + " when unset),"
                + " so the API server has nothing to default. Use the wrapper type ("
                + boxed(member.getType().getErasedType())
                + ", absent when null) or initialise the field to the"
                + " default in Java");
      }
    }
    List<Rule> rules = new ArrayList<>();
    Rule rule = annotation(member, Rule.class);
    if (rule != null) {
      rules.add(rule);
    }
    Rules ruleList = annotation(member, Rules.class);
    if (ruleList != null) {
      rules.addAll(List.of(ruleList.value()));
    }
    addRules(node, rules.toArray(Rule[]::new));
    if (!member.isFakeContainerItemScope()) {
      ListType listType = member.getAnnotationConsideringFieldAndGetter(ListType.class);
      if (listType == null
          && java.util.Set.class.isAssignableFrom(member.getType().getErasedType())
          && scalarItems(member.getType())) {
        // A Java Set holds each value once; say so, so the server refuses duplicates and
        // server-side
        // apply merges it per value.
        node.put("x-kubernetes-list-type", "set");
      }
      if (listType != null) {
        node.put("x-kubernetes-list-type", listType.value().name().toLowerCase(Locale.ROOT));
        if (listType.keys().length > 0) {
          ArrayNode keys = node.putArray("x-kubernetes-list-map-keys");
          for (String key : listType.keys()) {
            keys.add(key);
          }
        }
      }
      MapType mapType = member.getAnnotationConsideringFieldAndGetter(MapType.class);
      if (mapType != null) {
        node.put("x-kubernetes-map-type", mapType.value().name().toLowerCase(Locale.ROOT));
      }
      PrinterColumn[] columns =
          member.getRawMember() instanceof java.lang.reflect.AnnotatedElement element
              ? element.getAnnotationsByType(PrinterColumn.class)
              : new PrinterColumn[0];
      if (columns.length > 0) {
        ArrayNode markers = node.putArray(StructuralSchema.PRINTER_COLUMNS);
        for (PrinterColumn column : columns) {
          if (!column.jsonPath().isEmpty()) {
            throw new CrdGenerationException(
                javaName(member)
                    + ": @PrinterColumn '"
                    + column.name()
                    + "' on a field"
                    + " takes the field's path; leave jsonPath empty or move the column to the resource class");
          }
          ObjectNode marker = markers.addObject();
          marker.put("name", column.name());
          marker.put("type", column.type());
          marker.put("format", column.format());
          marker.put("description", column.description());
          marker.put("priority", column.priority());
        }
      }
      SelectableField[] selectable =
          member.getRawMember() instanceof java.lang.reflect.AnnotatedElement element
              ? element.getAnnotationsByType(SelectableField.class)
              : new SelectableField[0];
      for (SelectableField field : selectable) {
        if (!field.jsonPath().isEmpty()) {
          throw new CrdGenerationException(
              javaName(member)
                  + ": @SelectableField on a field takes the field's"
                  + " path; leave jsonPath empty or move it to the resource class");
        }
        node.put(StructuralSchema.SELECTABLE, true);
      }
      RecursionLimit limit = member.getAnnotationConsideringFieldAndGetter(RecursionLimit.class);
      if (limit != null) {
        if (limit.depth() < 0) {
          throw new CrdGenerationException(
              javaName(member) + ": @RecursionLimit depth must be 0 or more, was " + limit.depth());
        }
        node.put(StructuralSchema.RECURSION_LIMIT, limit.depth());
      }
    }
    upstreamAttributes(node, member);
    markPrimitive(node, member);
    requireContentWhenEmptyIsOmitted(node, member);
    if (annotation(member, PreserveUnknownFields.class) != null) {
      node.put(StructuralSchema.PRESERVE_UNKNOWN_FIELDS, true);
    }
    if (annotation(member, IntegerOrString.class) != null) {
      node.remove("type");
      node.remove("format");
      node.setAll(intOrString());
    }
  }

  static void addRules(ObjectNode node, Rule[] rules) {
    if (rules.length == 0) {
      return;
    }
    ArrayNode validations =
        node.has("x-kubernetes-validations")
            ? (ArrayNode) node.get("x-kubernetes-validations")
            : node.putArray("x-kubernetes-validations");
    for (Rule rule : rules) {
      ObjectNode entry = validations.addObject();
      entry.put("rule", rule.value());
      putIfNotEmpty(entry, "message", rule.message());
      putIfNotEmpty(entry, "messageExpression", rule.messageExpression());
      putIfNotEmpty(entry, "reason", rule.reason());
      putIfNotEmpty(entry, "fieldPath", rule.fieldPath());
      if (rule.optionalOldSelf()) {
        entry.put("optionalOldSelf", true);
      }
    }
  }

  private static boolean scalarItems(ResolvedType setType) {
    List<ResolvedType> parameters = setType.typeParametersFor(java.util.Set.class);
    if (parameters == null || parameters.size() != 1) {
      return false;
    }
    Class<?> item = parameters.get(0).getErasedType();
    return item == String.class
        || item.isEnum()
        || (Number.class.isAssignableFrom(item) && item != Quantity.class)
        || item == Boolean.class
        || item == Character.class;
  }

  /** Adds a warning to the node; StructuralSchema reports it with the member and the path. */
  static void warn(ObjectNode node, String message) {
    JsonNode existing = node.get(StructuralSchema.WARNINGS);
    ArrayNode warnings =
        existing instanceof ArrayNode array ? array : node.putArray(StructuralSchema.WARNINGS);
    warnings.add(message);
  }

  private static boolean excludesDefaultValues(MemberScope<?, ?> member) {
    com.fasterxml.jackson.annotation.JsonInclude include =
        member.getAnnotationConsideringFieldAndGetter(
            com.fasterxml.jackson.annotation.JsonInclude.class);
    if (include == null) {
      include =
          member
              .getDeclaringType()
              .getErasedType()
              .getAnnotation(com.fasterxml.jackson.annotation.JsonInclude.class);
    }
    return include != null
        && include.value() == com.fasterxml.jackson.annotation.JsonInclude.Include.NON_DEFAULT;
  }

  /**
   * True when a new instance (no-argument constructor) already holds the default in this field, so
   * objects built in Java send the default rather than zero.
   */
  private static boolean initialisedToDefault(MemberScope<?, ?> member, JsonNode defaultValue) {
    return initialValue(member)
        .map(
            initial ->
                (initial.isNumber() && defaultValue.isNumber())
                    ? initial.decimalValue().compareTo(defaultValue.decimalValue()) == 0
                    : initial.equals(defaultValue))
        .orElse(false);
  }

  /** The field's value in a new instance (no-argument constructor), when one can be made. */
  private static Optional<JsonNode> initialValue(MemberScope<?, ?> member) {
    if (!(member.getRawMember() instanceof java.lang.reflect.Field field)) {
      return Optional.empty();
    }
    try {
      java.lang.reflect.Constructor<?> constructor =
          field.getDeclaringClass().getDeclaredConstructor();
      constructor.setAccessible(true);
      Object instance = constructor.newInstance();
      field.setAccessible(true);
      return Optional.of(JSON.valueToTree(field.get(instance)));
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      // No usable no-argument constructor: nothing shows how the field starts out.
      return Optional.empty();
    }
  }

  /**
   * A required list or map that Jackson leaves out when empty ({@code @JsonInclude(NON_EMPTY)}, as
   * on fabric8's model lists such as a pod's containers) is absent, not empty, whenever it is
   * empty, and the server refuses the object; so it must hold at least one entry.
   */
  private void requireContentWhenEmptyIsOmitted(ObjectNode node, MemberScope<?, ?> member) {
    Class<?> raw = member.getType().getErasedType();
    boolean list =
        java.util.Collection.class.isAssignableFrom(raw) || (raw.isArray() && raw != byte[].class);
    boolean map = Map.class.isAssignableFrom(raw);
    if (member.isFakeContainerItemScope()
        || !(list || map)
        || !(annotation(member, Required.class) != null || upstreamRequired(member))) {
      return;
    }
    com.fasterxml.jackson.annotation.JsonInclude include =
        member.getAnnotationConsideringFieldAndGetter(
            com.fasterxml.jackson.annotation.JsonInclude.class);
    if (include == null) {
      include =
          member
              .getDeclaringType()
              .getErasedType()
              .getAnnotation(com.fasterxml.jackson.annotation.JsonInclude.class);
    }
    if (include == null
        || include.value() != com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY) {
      return;
    }
    String minimum = list ? "minItems" : "minProperties";
    if (node.path(minimum).asInt(0) < 1) {
      node.put(minimum, 1);
    }
  }

  /**
   * Marks a primitive number with the value it starts out as, so that StructuralSchema can warn
   * when the schema's bounds refuse it: fabric8 cannot leave a primitive out.
   */
  private static void markPrimitive(ObjectNode node, MemberScope<?, ?> member) {
    Class<?> raw = member.getType().getErasedType();
    if (!raw.isPrimitive()
        || raw == boolean.class
        || raw == char.class
        || member.isFakeContainerItemScope()
        || excludesDefaultValues(member)) {
      return;
    }
    ObjectNode marker = node.putObject(StructuralSchema.PRIMITIVE);
    marker.put("type", raw.getName());
    marker.put("wrapper", boxed(raw));
    marker.set("initial", initialValue(member).orElse(JSON.getNodeFactory().numberNode(0)));
  }

  private static String zeroOf(Class<?> primitive) {
    if (primitive == boolean.class) {
      return "false";
    }
    if (primitive == char.class) {
      return "\"\\u0000\"";
    }
    return primitive == float.class || primitive == double.class ? "0.0" : "0";
  }

  private static String boxed(Class<?> primitive) {
    return java.lang.invoke.MethodType.methodType(primitive).wrap().returnType().getSimpleName();
  }

  private static void putIfNotEmpty(ObjectNode node, String key, String value) {
    if (!value.isEmpty()) {
      node.put(key, value);
    }
  }

  private static void putNumber(ObjectNode node, String key, double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      node.put(key, (long) value);
    } else {
      node.put(key, value);
    }
  }

  private static void putBound(ObjectNode node, String key, long value) {
    if (value >= 0) {
      node.put(key, value);
    }
  }

  private static JsonNode parseDefault(MemberScope<?, ?> member, String text) {
    Class<?> raw = member.getType().getErasedType();
    boolean textual =
        raw == String.class || raw.isEnum() || raw == Character.class || raw == char.class;
    if (textual && !text.startsWith("\"")) {
      return StringNode.valueOf(text);
    }
    try {
      return JSON.readTree(text);
    } catch (JacksonException e) {
      throw new CrdGenerationException(
          javaName(member)
              + ": @Default(\""
              + text
              + "\") is not valid JSON for a "
              + raw.getSimpleName()
              + " ("
              + e.getOriginalMessage()
              + "); write numbers and booleans bare, lists as"
              + " [..] and objects as {..}",
          e);
    }
  }

  /**
   * Reads an annotation of this member; for the items of a list or map only type-use annotations on
   * the type argument count ({@code List<@Matches("[a-z]+") String>}).
   */
  static <A extends Annotation> A annotation(MemberScope<?, ?> member, Class<A> type) {
    if (member.isFakeContainerItemScope()) {
      return member.getContainerItemAnnotationConsideringFieldAndGetter(type);
    }
    return member.getAnnotationConsideringFieldAndGetter(type);
  }

  static String javaName(MemberScope<?, ?> member) {
    String owner = member.getDeclaringType().getErasedType().getSimpleName();
    String name =
        member instanceof MethodScope ? member.getDeclaredName() + "()" : member.getDeclaredName();
    return owner + "." + name;
  }
}
