package dev.converge.crd.openapi;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.converge.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.zip.GZIPOutputStream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Captures, from a real API server, what crd-gen needs to know about the built-in types that
 * fabric8's model classes stand for, and writes it as {@code kubernetes-model-semantics.json.gz}.
 * Run by {@code crd-gen/refresh-kubernetes-openapi.sh} when the pinned Kubernetes version changes.
 *
 * <p>It reads every group-version document under {@code /openapi/v3}, maps each fabric8 model class
 * on the class path to the upstream definition of the same name in the matching API group (checked
 * by the property names), and keeps per class only the required properties and, per property, list
 * type, list-map keys, map type, a scalar default and a string format. The output is sorted, so the
 * same server gives the same bytes.
 *
 * <pre>java ... KubernetesOpenApiCapture OUTPUT_FILE</pre>
 */
public final class KubernetesOpenApiCapture {

  private static final JsonMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();
  private static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model";
  private static final Set<String> KEPT =
      Set.of("x-kubernetes-list-type", "x-kubernetes-list-map-keys", "x-kubernetes-map-type");

  private KubernetesOpenApiCapture() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: KubernetesOpenApiCapture OUTPUT_FILE");
    }
    Path output = Path.of(args[0]);
    try (LocalCluster cluster = LocalCluster.start();
        KubernetesClient client = cluster.newClient()) {
      String version = JSON.readTree(get(client, "/version")).path("gitVersion").asString();
      Map<String, JsonNode> definitions = definitions(client);
      ObjectNode capture = capture(version, definitions, modelClasses());
      byte[] json = JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(capture);
      Files.createDirectories(output.toAbsolutePath().getParent());
      try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(output))) {
        out.write(json);
        out.write('\n');
      }
      System.out.println(
          "captured "
              + capture.get("types").size()
              + " fabric8 model classes of "
              + definitions.size()
              + " definitions from Kubernetes "
              + version
              + " into "
              + output
              + " ("
              + Files.size(output)
              + " bytes, "
              + json.length
              + " uncompressed)");
    }
  }

  private static String get(KubernetesClient client, String path) {
    String base = client.getMasterUrl().toString().replaceAll("/$", "");
    String body = client.raw(base + path);
    if (body == null) {
      throw new IllegalStateException("GET " + path + " returned nothing");
    }
    return body;
  }

  /** Every definition of every group-version document, by name. */
  static Map<String, JsonNode> definitions(KubernetesClient client) {
    JsonNode index = JSON.readTree(get(client, "/openapi/v3"));
    Map<String, JsonNode> definitions = new TreeMap<>();
    for (Map.Entry<String, JsonNode> path : index.path("paths").properties()) {
      String name = path.getKey();
      if (!name.equals("api/v1") && !(name.startsWith("apis/") && name.split("/").length == 3)) {
        continue;
      }
      JsonNode document =
          JSON.readTree(get(client, path.getValue().path("serverRelativeURL").asString()));
      for (Map.Entry<String, JsonNode> schema :
          document.path("components").path("schemas").properties()) {
        definitions.putIfAbsent(schema.getKey(), schema.getValue());
      }
    }
    return definitions;
  }

  /**
   * The trimmed capture: for each mapped fabric8 class, its definition name, required list and
   * properties.
   */
  static ObjectNode capture(
      String version, Map<String, JsonNode> definitions, List<Class<?>> classes) {
    Map<String, List<String>> bySimpleName = new TreeMap<>();
    for (String name : definitions.keySet()) {
      bySimpleName
          .computeIfAbsent(name.substring(name.lastIndexOf('.') + 1), k -> new ArrayList<>())
          .add(name);
    }
    Set<String> listMapKeys = listMapKeys(definitions);
    ObjectNode root = JSON.createObjectNode();
    root.put("kubernetesVersion", version);
    root.put(
        "source",
        "/openapi/v3 of kube-apiserver " + version + ", written by KubernetesOpenApiCapture");
    ObjectNode types = root.putObject("types");
    for (Class<?> type : classes) {
      Set<String> javaProperties = jsonProperties(type);
      List<String> candidates = bySimpleName.getOrDefault(type.getSimpleName(), List.of());
      String best =
          candidates.stream()
              .filter(name -> samePackage(type, name))
              .filter(
                  name ->
                      overlap(definitions.get(name), javaProperties) > 0.5
                          || javaProperties.isEmpty())
              .max(
                  Comparator.comparingInt((String name) -> packageAffinity(type, name))
                      .thenComparingDouble(name -> overlap(definitions.get(name), javaProperties)))
              .orElse(null);
      if (best == null) {
        continue;
      }
      ObjectNode trimmed = trim(best, definitions, javaProperties, listMapKeys);
      if (trimmed != null) {
        types.set(type.getName(), trimmed);
      }
    }
    return root;
  }

  /**
   * A class of a fabric8 group package (for example {@code ...model.batch.v1}) maps only to a
   * definition of that group and version, so a class of a version the server no longer serves maps
   * to nothing.
   */
  private static boolean samePackage(Class<?> type, String definition) {
    String suffix =
        type.getPackageName().substring(MODEL_PACKAGE.length()).replaceFirst("^\\.", "");
    return suffix.isEmpty()
        ? packageAffinity(type, definition) > 0
        : packageAffinity(type, definition) == 2 * suffix.split("\\.").length;
  }

  /** Higher when the definition's group and version appear in the fabric8 package. */
  private static int packageAffinity(Class<?> type, String definition) {
    String suffix =
        type.getPackageName().substring(MODEL_PACKAGE.length()).replaceFirst("^\\.", "");
    if (suffix.isEmpty()) {
      if (definition.startsWith("io.k8s.api.core.v1.")) {
        return 3;
      }
      if (definition.startsWith("io.k8s.apimachinery.pkg.apis.meta.v1.")) {
        return 2;
      }
      return definition.startsWith("io.k8s.apimachinery.") ? 1 : 0;
    }
    int score = 0;
    List<String> segments = Arrays.asList(definition.toLowerCase(Locale.ROOT).split("\\."));
    for (String part : suffix.split("\\.", -1)) {
      if (segments.contains(part)) {
        score += 2;
      }
    }
    return score;
  }

  private static double overlap(JsonNode definition, Set<String> javaProperties) {
    Set<String> upstream = new TreeSet<>(definition.path("properties").propertyNames());
    if (upstream.isEmpty() || javaProperties.isEmpty()) {
      return upstream.isEmpty() && javaProperties.isEmpty() ? 1 : 0;
    }
    long common = javaProperties.stream().filter(upstream::contains).count();
    return (double) common / Math.max(upstream.size(), javaProperties.size());
  }

  /**
   * Every {@code definition#property} that is a key of some list-map: its default stays even when
   * it is a zero value, because a list-map key must be required or defaulted ({@code
   * imagePullSecrets} items have an optional {@code name} defaulting to "").
   */
  private static Set<String> listMapKeys(Map<String, JsonNode> definitions) {
    Set<String> keys = new TreeSet<>();
    for (JsonNode definition : definitions.values()) {
      for (JsonNode property : definition.path("properties")) {
        if (!property.has("x-kubernetes-list-map-keys")) {
          continue;
        }
        JsonNode items = referencedName(property.path("items"));
        if (items != null) {
          property
              .get("x-kubernetes-list-map-keys")
              .forEach(key -> keys.add(items.asString() + "#" + key.asString()));
        }
      }
    }
    return keys;
  }

  private static JsonNode referencedName(JsonNode schema) {
    JsonNode reference =
        schema.has("$ref")
            ? schema.get("$ref")
            : schema.path("allOf").size() == 1 ? schema.get("allOf").get(0).get("$ref") : null;
    return reference == null
        ? null
        : JSON.getNodeFactory()
            .stringNode(reference.asString().substring(reference.asString().lastIndexOf('/') + 1));
  }

  private static ObjectNode trim(
      String name,
      Map<String, JsonNode> definitions,
      Set<String> javaProperties,
      Set<String> listMapKeys) {
    JsonNode definition = definitions.get(name);
    ObjectNode trimmed = JSON.createObjectNode();
    ArrayNode required = JSON.createArrayNode();
    definition
        .path("required")
        .forEach(
            property -> {
              if (javaProperties.contains(property.asString())) {
                required.add(property.asString());
              }
            });
    ObjectNode properties = JSON.createObjectNode();
    for (Map.Entry<String, JsonNode> property :
        new TreeMap<>(
                definition.path("properties").properties().stream()
                    .collect(
                        java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)))
            .entrySet()) {
      if (!javaProperties.contains(property.getKey())) {
        continue;
      }
      JsonNode schema = property.getValue();
      JsonNode scalar = referenced(schema, definitions);
      ObjectNode kept = JSON.createObjectNode();
      for (String key : KEPT) {
        if (schema.has(key)) {
          kept.set(key, schema.get(key));
        }
      }
      JsonNode defaultValue = schema.get("default");
      if (defaultValue != null
          && defaultValue.isValueNode()
          && !defaultValue.isNull()
          && (!zero(defaultValue)
              || (listMapKeys.contains(name + "#" + property.getKey())
                  && !definition
                      .path("required")
                      .valueStream()
                      .anyMatch(r -> r.asString().equals(property.getKey()))))) {
        kept.set("default", defaultValue);
      }
      String format = scalar.path("format").asString("");
      if ("string".equals(scalar.path("type").asString(""))
          && !format.isEmpty()
          && !format.equals("int-or-string")) {
        kept.put("format", format);
      }
      if (!kept.isEmpty()) {
        properties.set(property.getKey(), sorted(kept));
      }
    }
    if (required.isEmpty() && properties.isEmpty()) {
      return null;
    }
    trimmed.put("definition", name);
    if (!required.isEmpty()) {
      List<String> sortedRequired = new ArrayList<>();
      required.forEach(value -> sortedRequired.add(value.asString()));
      sortedRequired.sort(String::compareTo);
      ArrayNode array = trimmed.putArray("required");
      sortedRequired.forEach(array::add);
    }
    if (!properties.isEmpty()) {
      trimmed.set("properties", properties);
    }
    return trimmed;
  }

  /**
   * A Go zero value as default ({@code ""}, {@code 0}, {@code false}) mostly says only that a
   * non-pointer field is always serialised; in a CRD it would fill in fields the user never set (an
   * empty container name, and a required one would never be missing), so besides list-map keys that
   * are not required only real defaults ({@code protocol: TCP}) are kept.
   */
  private static boolean zero(JsonNode value) {
    return value.isNull()
        || (value.isString() && value.asString().isEmpty())
        || (value.isNumber() && value.decimalValue().signum() == 0)
        || (value.isBoolean() && !value.asBoolean());
  }

  /** The schema itself, or for {@code allOf: [{$ref}]} / {@code $ref} the referenced definition. */
  private static JsonNode referenced(JsonNode schema, Map<String, JsonNode> definitions) {
    JsonNode name = referencedName(schema);
    return name == null ? schema : definitions.getOrDefault(name.asString(), schema);
  }

  private static ObjectNode sorted(ObjectNode node) {
    ObjectNode sorted = JSON.createObjectNode();
    new TreeSet<>(node.propertyNames()).forEach(key -> sorted.set(key, node.get(key)));
    return sorted;
  }

  /** The JSON names of a fabric8 model class's properties, from its fields. */
  static Set<String> jsonProperties(Class<?> type) {
    Set<String> names = new LinkedHashSet<>();
    for (Class<?> current = type;
        current != null && current != Object.class;
        current = current.getSuperclass()) {
      for (Field field : current.getDeclaredFields()) {
        if (Modifier.isStatic(field.getModifiers())
            || field.isAnnotationPresent(JsonIgnore.class)) {
          continue;
        }
        JsonProperty property = field.getAnnotation(JsonProperty.class);
        names.add(
            property != null && !property.value().isEmpty() ? property.value() : field.getName());
      }
    }
    return names;
  }

  /**
   * Concrete fabric8 model classes (not resources, not lists, not builders) on the class path,
   * sorted.
   */
  static List<Class<?>> modelClasses() throws IOException, URISyntaxException {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    Set<Path> jars = new TreeSet<>();
    for (ClassLoader current = loader; current != null; current = current.getParent()) {
      if (current instanceof URLClassLoader urls) {
        for (URL url : urls.getURLs()) {
          addModelJar(jars, url.toURI().getPath());
        }
      }
    }
    for (String entry :
        System.getProperty("java.class.path").split(java.io.File.pathSeparator, -1)) {
      addModelJar(jars, entry);
    }
    Set<String> names = new TreeSet<>();
    for (Path jar : jars) {
      try (JarFile file = new JarFile(jar.toFile())) {
        file.stream()
            .map(entry -> entry.getName())
            .filter(
                name ->
                    name.startsWith(MODEL_PACKAGE.replace('.', '/') + "/")
                        && name.endsWith(".class")
                        && !name.contains("$")
                        && !name.endsWith("Builder.class")
                        && !name.endsWith("Fluent.class"))
            .map(name -> name.substring(0, name.length() - ".class".length()).replace('/', '.'))
            .forEach(names::add);
      }
    }
    List<Class<?>> classes = new ArrayList<>();
    for (String name : names) {
      Class<?> type;
      try {
        type = Class.forName(name, false, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        throw new IllegalStateException("cannot load " + name + ": " + e, e);
      }
      if (!type.isInterface()
          && !Modifier.isAbstract(type.getModifiers())
          && Modifier.isPublic(type.getModifiers())
          && KubernetesResource.class.isAssignableFrom(type)
          && !HasMetadata.class.isAssignableFrom(type)
          && !KubernetesResourceList.class.isAssignableFrom(type)) {
        classes.add(type);
      }
    }
    return classes;
  }

  private static void addModelJar(Set<Path> jars, String entry) {
    Path path = Path.of(entry);
    String file = path.getFileName() == null ? "" : path.getFileName().toString();
    if (file.startsWith("kubernetes-model-")
        && file.endsWith(".jar")
        && Files.isRegularFile(path)) {
      jars.add(path);
    }
  }
}
