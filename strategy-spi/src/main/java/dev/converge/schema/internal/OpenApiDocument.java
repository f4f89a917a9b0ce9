package dev.converge.schema.internal;

import dev.converge.schema.ListSchema;
import dev.converge.schema.ListType;
import dev.converge.schema.MapSchema;
import dev.converge.schema.ScalarSchema;
import dev.converge.schema.SchemaNode;
import dev.converge.schema.UntypedSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One OpenAPI v3 document of the API server (one group-version) turned into {@link SchemaNode}s.
 * Definitions are converted on first use and cached, which keeps recursive definitions (a CRD's
 * {@code JSONSchemaProps}) finite.
 *
 * <p>List semantics follow the server's own conversion: {@code x-kubernetes-list-type} wins; else a
 * {@code merge} patch strategy with a merge key makes a map list keyed by it, and without a key a
 * set; else the list is atomic.
 */
public final class OpenApiDocument {

  private static final String REF_PREFIX = "#/components/schemas/";
  private static final String QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";
  private static final String INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
  private static final Set<String> UNTYPED_DEFINITIONS =
      Set.of(
          "io.k8s.apimachinery.pkg.runtime.RawExtension",
          "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1",
          "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON",
          "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray",
          "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool",
          "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray");

  private final Map<String, Map<String, Object>> definitions;
  private final Map<String, String> definitionByKind;
  private final Map<String, SchemaNode> converted = new ConcurrentHashMap<>();

  private OpenApiDocument(
      Map<String, Map<String, Object>> definitions, Map<String, String> definitionByKind) {
    this.definitions = definitions;
    this.definitionByKind = definitionByKind;
  }

  /** Reads the {@code components.schemas} of a parsed document; descriptions are dropped. */
  @SuppressWarnings("unchecked")
  public static OpenApiDocument of(Map<String, Object> document) {
    Object components = document.get("components");
    Object schemas = components instanceof Map<?, ?> c ? c.get("schemas") : null;
    Map<String, Map<String, Object>> definitions = new HashMap<>();
    Map<String, String> byKind = new HashMap<>();
    if (schemas instanceof Map<?, ?> all) {
      all.forEach(
          (name, schema) -> {
            if (schema instanceof Map<?, ?> s) {
              Map<String, Object> stripped = (Map<String, Object>) strip(s);
              definitions.put((String) name, stripped);
              if (stripped.get("x-kubernetes-group-version-kind") instanceof List<?> gvks) {
                for (Object gvk : gvks) {
                  if (gvk instanceof Map<?, ?> g) {
                    byKind.put(
                        kindKey(
                            String.valueOf(g.get("group")),
                            String.valueOf(g.get("version")),
                            String.valueOf(g.get("kind"))),
                        (String) name);
                  }
                }
              }
            }
          });
    }
    return new OpenApiDocument(definitions, byKind);
  }

  /** The key kinds are looked up by: {@code group/version/Kind}, with an empty group for core. */
  public static String kindKey(String group, String version, String kind) {
    return (group == null || "null".equals(group) ? "" : group) + "/" + version + "/" + kind;
  }

  /** The schema of a top-level kind, if this document defines it. */
  public Optional<SchemaNode> kind(String group, String version, String kind) {
    String name = definitionByKind.get(kindKey(group, version, kind));
    return name == null ? Optional.empty() : Optional.of(definition(name));
  }

  /** Number of definitions, for logs. */
  public int size() {
    return definitions.size();
  }

  private SchemaNode definition(String name) {
    SchemaNode done = converted.get(name);
    if (done != null) {
      return done;
    }
    SchemaNode node;
    if (QUANTITY.equals(name)) {
      node = ScalarSchema.QUANTITY;
    } else if (INT_OR_STRING.equals(name)) {
      node = ScalarSchema.INT_OR_STRING;
    } else if (UNTYPED_DEFINITIONS.contains(name) || !definitions.containsKey(name)) {
      node = UntypedSchema.INSTANCE;
    } else {
      node = convert(definitions.get(name), name);
    }
    SchemaNode raced = converted.putIfAbsent(name, node);
    return raced == null ? node : raced;
  }

  private SchemaNode convert(Map<String, Object> schema, String name) {
    Object ref = schema.get("$ref");
    if (ref == null
        && schema.get("allOf") instanceof List<?> all
        && all.size() == 1
        && all.get(0) instanceof Map<?, ?> only) {
      ref = only.get("$ref");
    }
    if (ref instanceof String r && r.startsWith(REF_PREFIX)) {
      SchemaNode target = definition(r.substring(REF_PREFIX.length()));
      if (target instanceof MapSchema map && "atomic".equals(schema.get("x-kubernetes-map-type"))) {
        return map.asAtomic();
      }
      return target;
    }
    if (Boolean.TRUE.equals(schema.get("x-kubernetes-int-or-string"))) {
      return ScalarSchema.INT_OR_STRING;
    }
    Object type = schema.get("type");
    Object properties = schema.get("properties");
    Object additional = schema.get("additionalProperties");
    boolean preserveUnknown =
        Boolean.TRUE.equals(schema.get("x-kubernetes-preserve-unknown-fields"));
    if ("array".equals(type) || (type == null && schema.containsKey("items"))) {
      return list(schema);
    }
    if ("object".equals(type)
        || properties instanceof Map<?, ?>
        || additional instanceof Map<?, ?>) {
      return map(schema, name, preserveUnknown);
    }
    if (type == null) {
      return UntypedSchema.INSTANCE;
    }
    return switch (String.valueOf(type)) {
      case "string" -> ScalarSchema.STRING;
      case "integer" -> ScalarSchema.INTEGER;
      case "number" -> ScalarSchema.NUMBER;
      case "boolean" -> ScalarSchema.BOOLEAN;
      default -> UntypedSchema.INSTANCE;
    };
  }

  @SuppressWarnings("unchecked")
  private SchemaNode map(Map<String, Object> schema, String name, boolean preserveUnknown) {
    Map<String, Map<String, Object>> properties = new LinkedHashMap<>();
    Map<String, Object> defaults = new HashMap<>();
    if (schema.get("properties") instanceof Map<?, ?> props) {
      props.forEach(
          (k, v) -> {
            if (v instanceof Map<?, ?> p) {
              properties.put((String) k, (Map<String, Object>) p);
              Object def = p.get("default");
              if (def != null && !(def instanceof Map<?, ?> m && m.isEmpty())) {
                defaults.put((String) k, def);
              }
            }
          });
    }
    SchemaNode elements = null;
    Object additional = schema.get("additionalProperties");
    if (additional instanceof Map<?, ?> a) {
      elements = convert((Map<String, Object>) a, "");
    } else if (Boolean.TRUE.equals(additional) || preserveUnknown) {
      elements = UntypedSchema.INSTANCE;
    }
    if (properties.isEmpty() && elements == null) {
      // "type: object" and nothing else: a free-form object.
      return UntypedSchema.INSTANCE;
    }
    boolean atomic = "atomic".equals(schema.get("x-kubernetes-map-type"));
    boolean builtIn = name.startsWith("io.k8s.");
    return new MapSchema(
        name,
        atomic,
        builtIn,
        properties.keySet(),
        field -> convert(properties.get(field), ""),
        elements,
        defaults);
  }

  @SuppressWarnings("unchecked")
  private SchemaNode list(Map<String, Object> schema) {
    Map<String, Object> items =
        schema.get("items") instanceof Map<?, ?> i ? (Map<String, Object>) i : Map.of();
    Object listType = schema.get("x-kubernetes-list-type");
    List<String> keys = new ArrayList<>();
    if (schema.get("x-kubernetes-list-map-keys") instanceof List<?> k) {
      k.forEach(key -> keys.add(String.valueOf(key)));
    }
    ListType type;
    if ("map".equals(listType) && !keys.isEmpty()) {
      type = ListType.MAP;
    } else if ("set".equals(listType)) {
      type = ListType.SET;
    } else if (listType != null) {
      type = ListType.ATOMIC;
    } else if (String.valueOf(schema.get("x-kubernetes-patch-strategy")).contains("merge")) {
      Object mergeKey = schema.get("x-kubernetes-patch-merge-key");
      if (mergeKey instanceof String key && !key.isEmpty()) {
        keys.clear();
        keys.add(key);
        type = ListType.MAP;
      } else {
        type = ListType.SET;
      }
    } else {
      type = ListType.ATOMIC;
    }
    return new ListSchema(() -> convert(items, ""), type, type == ListType.MAP ? keys : List.of());
  }

  /**
   * A copy of a schema tree without descriptions and examples, which are most of its size. Keys of
   * {@code properties} are field names, never annotations, so a field called {@code description}
   * stays.
   */
  private static Object strip(Object node) {
    return strip(node, false);
  }

  private static Object strip(Object node, boolean fieldNames) {
    if (node instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach(
          (k, v) -> {
            boolean annotation =
                "description".equals(k) || "example".equals(k) || "externalDocs".equals(k);
            if (fieldNames || !annotation) {
              out.put((String) k, strip(v, !fieldNames && "properties".equals(k)));
            }
          });
      return out;
    }
    if (node instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(v -> out.add(strip(v, false)));
      return out;
    }
    return node;
  }
}
