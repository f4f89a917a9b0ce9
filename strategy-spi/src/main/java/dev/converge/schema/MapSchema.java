package dev.converge.schema;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A map position: a struct with named fields, a string-keyed map ({@code additionalProperties}), or
 * both. Field types are resolved on first use, so recursive schemas cost nothing until a value
 * reaches that deep.
 */
public final class MapSchema implements SchemaNode {

  private final String typeName;
  private final boolean atomic;
  private final boolean omitsZeroValues;
  private final Set<String> fieldNames;
  private final Function<String, SchemaNode> fieldResolver;
  private final SchemaNode elements;
  private final Map<String, Object> defaults;
  private final Map<String, SchemaNode> resolved = new ConcurrentHashMap<>();

  /**
   * A map schema whose field types are looked up only when a value needs them.
   *
   * @param typeName the schema definition's name (for example {@code io.k8s.api.core.v1.Volume}),
   *     or empty for an anonymous schema; it is how one-of fields are recognised
   * @param atomic {@code x-kubernetes-map-type: atomic}: the map is one value, replaced whole
   * @param omitsZeroValues the server drops {@code false}, {@code 0} and {@code ""} fields when it
   *     stores this struct (built-in kinds, serialised with {@code omitempty})
   * @param fieldNames the declared fields
   * @param fieldResolver the type of a declared field, called at most once per field
   * @param elements the type of keys that are not declared fields, or null when there are none
   * @param defaults the declared default value of each field that has one
   * @throws NullPointerException if an argument other than {@code elements} is null
   */
  public MapSchema(
      String typeName,
      boolean atomic,
      boolean omitsZeroValues,
      Set<String> fieldNames,
      Function<String, SchemaNode> fieldResolver,
      SchemaNode elements,
      Map<String, Object> defaults) {
    this.typeName = Objects.requireNonNull(typeName, "typeName");
    this.atomic = atomic;
    this.omitsZeroValues = omitsZeroValues;
    this.fieldNames = Set.copyOf(fieldNames);
    this.fieldResolver = Objects.requireNonNull(fieldResolver, "fieldResolver");
    this.elements = elements;
    this.defaults = Map.copyOf(defaults);
  }

  /**
   * A string-keyed map whose values all have type {@code elements}, with no declared field (labels,
   * a ConfigMap's data, a selector's matchLabels).
   *
   * @param elements the type of every value
   * @param atomic whether the map is replaced whole rather than merged key by key
   * @return an anonymous map schema
   */
  public static MapSchema mapOf(SchemaNode elements, boolean atomic) {
    return new MapSchema("", atomic, false, Set.of(), f -> elements, elements, Map.of());
  }

  /**
   * The schema definition's name, or empty.
   *
   * @return a name such as {@code io.k8s.api.core.v1.Volume}; empty for an anonymous schema
   */
  public String typeName() {
    return typeName;
  }

  /**
   * Whether the map is replaced whole rather than merged key by key.
   *
   * @return true for {@code x-kubernetes-map-type: atomic}
   */
  public boolean atomic() {
    return atomic;
  }

  /**
   * Whether the server omits zero-valued fields of this struct when it stores it, so that a desired
   * {@code false}, {@code 0} or {@code ""} live lacks is no difference.
   *
   * @return true for the structs of built-in kinds
   */
  public boolean omitsZeroValues() {
    return omitsZeroValues;
  }

  /**
   * The declared fields.
   *
   * @return the names of the declared fields, unmodifiable; empty for a plain string-keyed map
   */
  public Set<String> fieldNames() {
    return fieldNames;
  }

  /**
   * Whether {@code key} is a declared field (rather than a key of a string-keyed map).
   *
   * @param key a key of a value at this position
   * @return true when the schema declares it
   */
  public boolean isField(String key) {
    return fieldNames.contains(key);
  }

  /**
   * The declared default of {@code field}, if it has one: a value the server fills in when it is
   * left out, and so no sign of another writer.
   *
   * @param field a field name
   * @return the default as a tree value; empty when the field declares none
   */
  public Optional<Object> defaultOf(String field) {
    return Optional.ofNullable(defaults.get(field));
  }

  /**
   * The type of the value under {@code key}: the declared field's type, else the element type, else
   * untyped (a key the schema does not know, which the server would prune or reject).
   *
   * @param key a key of a value at this position
   * @return the key's type, never null; a field's type is resolved on first use and kept
   */
  public SchemaNode child(String key) {
    if (fieldNames.contains(key)) {
      return resolved.computeIfAbsent(key, fieldResolver);
    }
    return elements != null ? elements : UntypedSchema.INSTANCE;
  }

  /**
   * The same map replaced whole: for a field that refers to a shared struct definition and marks it
   * {@code x-kubernetes-map-type: atomic} there, as a Service's selector does, without changing the
   * definition's other uses.
   *
   * @return this schema when it is atomic already, else an atomic copy
   */
  public MapSchema asAtomic() {
    if (atomic) {
      return this;
    }
    return new MapSchema(
        typeName, true, omitsZeroValues, fieldNames, this::child, elements, defaults);
  }

  @Override
  public String toString() {
    return "MapSchema["
        + (typeName.isEmpty() ? "anonymous" : typeName)
        + (atomic ? ", atomic" : "")
        + "]";
  }
}
