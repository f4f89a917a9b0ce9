package dev.converge.crd.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * How the API server of the pinned Kubernetes version treats the fields of the built-in types that
 * fabric8's model classes stand for: list types and keys, map types, required fields, scalar
 * defaults and string formats, as its own OpenAPI v3 documents declare them. Read from {@value
 * #RESOURCE}, which {@code crd-gen/refresh-kubernetes-openapi.sh} captures from the local control
 * plane's API server.
 *
 * <p>With it a fabric8 type embedded in a custom resource (a pod template, a container list) merges
 * under server-side apply exactly as it does inside a Deployment.
 */
public final class KubernetesModelSemantics {

  /** The class-path resource holding the capture. */
  public static final String RESOURCE =
      "dev/converge/crd/internal/kubernetes-model-semantics.json.gz";

  /**
   * What the upstream schema says about one property.
   *
   * @param listType {@code x-kubernetes-list-type}, or empty
   * @param listMapKeys {@code x-kubernetes-list-map-keys}
   * @param mapType {@code x-kubernetes-map-type}, or empty
   * @param defaultValue a scalar default, or empty
   * @param format the format of a string property, or empty
   */
  public record Property(
      Optional<String> listType,
      List<String> listMapKeys,
      Optional<String> mapType,
      Optional<JsonNode> defaultValue,
      Optional<String> format) {}

  /**
   * One built-in type.
   *
   * @param definition the upstream definition name, e.g. {@code io.k8s.api.core.v1.Container}
   * @param required properties the API server requires
   * @param properties properties with list or map semantics, a default or a format, by JSON name
   */
  public record Type(String definition, List<String> required, Map<String, Property> properties) {}

  private static final class Loaded {
    private static final KubernetesModelSemantics INSTANCE = load();
  }

  private final String kubernetesVersion;
  private final Map<String, Type> byJavaClass;

  private KubernetesModelSemantics(String kubernetesVersion, Map<String, Type> byJavaClass) {
    this.kubernetesVersion = kubernetesVersion;
    this.byJavaClass = byJavaClass;
  }

  /** The capture bundled with this module. */
  public static KubernetesModelSemantics bundled() {
    return Loaded.INSTANCE;
  }

  /** The Kubernetes version the capture was taken from, e.g. {@code v1.37.2}. */
  public String kubernetesVersion() {
    return kubernetesVersion;
  }

  /** The semantics of a fabric8 model class, when it stands for a built-in type. */
  public Optional<Type> of(Class<?> javaClass) {
    return Optional.ofNullable(byJavaClass.get(javaClass.getName()));
  }

  /** How many fabric8 classes the capture maps. */
  public int size() {
    return byJavaClass.size();
  }

  private static KubernetesModelSemantics load() {
    // Class.getResourceAsStream, not the class loader's: in a named module a class loader hands out
    // a resource of a package only when the package is open, and this one is internal.
    try (InputStream compressed =
        KubernetesModelSemantics.class.getResourceAsStream("/" + RESOURCE)) {
      if (compressed == null) {
        throw new IllegalStateException(
            "the class path has no "
                + RESOURCE
                + "; it is part of converge-crd-gen's"
                + " jar, so the jar is incomplete: rebuild it");
      }
      try (InputStream in = new GZIPInputStream(compressed)) {
        return parse(JsonMapper.builder().build().readTree(in));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }

  static KubernetesModelSemantics parse(JsonNode root) {
    Map<String, Type> types = new HashMap<>();
    for (Map.Entry<String, JsonNode> entry : root.path("types").properties()) {
      JsonNode type = entry.getValue();
      Map<String, Property> properties = new HashMap<>();
      for (Map.Entry<String, JsonNode> property : type.path("properties").properties()) {
        JsonNode p = property.getValue();
        properties.put(
            property.getKey(),
            new Property(
                text(p, "x-kubernetes-list-type"),
                texts(p.path("x-kubernetes-list-map-keys")),
                text(p, "x-kubernetes-map-type"),
                Optional.ofNullable(p.get("default")),
                text(p, "format")));
      }
      types.put(
          entry.getKey(),
          new Type(
              type.path("definition").asString(),
              texts(type.path("required")),
              Collections.unmodifiableMap(properties)));
    }
    return new KubernetesModelSemantics(
        root.path("kubernetesVersion").asString(), Collections.unmodifiableMap(types));
  }

  private static Optional<String> text(JsonNode node, String key) {
    return node.has(key) ? Optional.of(node.get(key).asString()) : Optional.empty();
  }

  private static List<String> texts(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(value -> values.add(value.asString()));
    return List.copyOf(values);
  }
}
