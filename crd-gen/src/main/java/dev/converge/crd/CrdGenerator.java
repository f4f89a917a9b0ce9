package dev.converge.crd;

import dev.converge.crd.internal.CrdSerialization;
import dev.converge.crd.internal.ResourceVersionBuilder;
import dev.converge.crd.internal.ResourceVersionBuilder.ResourceVersion;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Generates {@code apiextensions.k8s.io/v1} CustomResourceDefinitions from fabric8 {@link
 * io.fabric8.kubernetes.client.CustomResource} classes.
 *
 * <p>Names come from fabric8's {@code @Group}, {@code @Version}, {@code @Kind}, {@code @Plural},
 * {@code @Singular}, {@code @ShortNames} and {@code @Categories}; the scope from {@link
 * io.fabric8.kubernetes.api.model.Namespaced}. Classes that share group and plural are versions of
 * one CRD: exactly one of them must be {@code @Version(storage = true)}. The schema comes from the
 * spec and status types, with Converge's annotations ({@code dev.converge.crd.annotation}), Jakarta
 * Validation and Jackson annotations.
 *
 * <pre>{@code
 * List<GeneratedCrd> crds = CrdGenerator.generate(AppDeployment.class);
 * client.apiextensions().v1().customResourceDefinitions().resource(crds.get(0).definition()).create();
 * }</pre>
 */
public final class CrdGenerator {

  private static final KubernetesSerialization SERIALIZATION = CrdSerialization.INSTANCE;

  private CrdGenerator() {}

  /**
   * Generates the CRDs of the given custom resource classes.
   *
   * @param resourceClasses fabric8 {@code CustomResource} classes; versions of one CRD are merged
   *     into it
   * @return one entry per CRD, sorted by name
   * @throws CrdGenerationException naming the class or Java member that cannot be expressed
   */
  public static List<GeneratedCrd> generate(Class<?>... resourceClasses) {
    return generate(Arrays.asList(resourceClasses));
  }

  /**
   * Generates the CRDs of the given custom resource classes, as {@link #generate(Class[])} does.
   *
   * @param resourceClasses fabric8 {@code CustomResource} classes; versions of one CRD are merged
   *     into it
   * @return one entry per CRD, sorted by name
   * @throws CrdGenerationException naming the class or Java member that cannot be expressed
   */
  public static List<GeneratedCrd> generate(Collection<? extends Class<?>> resourceClasses) {
    Map<String, List<ResourceVersion>> byCrd = new LinkedHashMap<>();
    for (Class<?> resourceClass : new LinkedHashSet<>(resourceClasses)) {
      ResourceVersion version = ResourceVersionBuilder.read(resourceClass);
      byCrd.computeIfAbsent(version.crdName(), name -> new ArrayList<>()).add(version);
    }
    return byCrd.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .map(entry -> assemble(entry.getKey(), entry.getValue()))
        .toList();
  }

  private static GeneratedCrd assemble(String name, List<ResourceVersion> versions) {
    ResourceVersion first = versions.get(0);
    for (ResourceVersion other : versions.subList(1, versions.size())) {
      if (!other.names().equals(first.names()) || !other.scope().equals(first.scope())) {
        throw new CrdGenerationException(
            "CRD "
                + name
                + ": "
                + first.source().getName()
                + " and "
                + other.source().getName()
                + " are versions of one CRD but differ in kind, names, short names,"
                + " categories or scope (Namespaced); make them agree");
      }
      if (other.version().getName().equals(first.version().getName())) {
        throw new CrdGenerationException(
            "CRD "
                + name
                + ": "
                + first.source().getName()
                + " and "
                + other.source().getName()
                + " both declare version "
                + first.version().getName());
      }
    }
    List<ResourceVersion> storage =
        versions.stream().filter(v -> v.version().getStorage()).toList();
    if (storage.size() != 1) {
      throw new CrdGenerationException(
          "CRD "
              + name
              + " needs exactly one storage version but has "
              + storage.size()
              + " ("
              + storage.stream()
                  .map(v -> v.source().getSimpleName() + " " + v.version().getName())
                  .collect(Collectors.joining(", "))
              + " among "
              + versions.stream().map(v -> v.version().getName()).collect(Collectors.joining(", "))
              + "); mark the others @Version(value = \"...\", storage = false)");
    }
    List<CustomResourceDefinitionVersion> entries =
        versions.stream().map(ResourceVersion::version).toList();
    List<String> warnings = new ArrayList<>();
    versions.forEach(
        v -> v.warnings().forEach(w -> warnings.add(v.source().getSimpleName() + " " + w)));
    differentSchemas(name, versions, storage.get(0)).ifPresent(warnings::add);
    ObjectMeta metadata = new ObjectMeta();
    metadata.setName(name);
    merged(name, "@CrdLabel", versions, ResourceVersion::labels).ifPresent(metadata::setLabels);
    merged(name, "@CrdAnnotation", versions, ResourceVersion::annotations)
        .ifPresent(metadata::setAnnotations);
    CustomResourceDefinition definition =
        new CustomResourceDefinitionBuilder()
            .withMetadata(metadata)
            .withNewSpec()
            .withGroup(first.group())
            .withScope(first.scope())
            .withNames(first.names())
            .withVersions(entries)
            .endSpec()
            .build();
    return new GeneratedCrd(name, definition, SERIALIZATION.asYaml(definition), warnings);
  }

  private static Optional<Map<String, String>> merged(
      String crd,
      String what,
      List<ResourceVersion> versions,
      Function<ResourceVersion, Map<String, String>> part) {
    Map<String, String> merged = new TreeMap<>();
    Map<String, Class<?>> from = new HashMap<>();
    for (ResourceVersion version : versions) {
      for (Map.Entry<String, String> entry : part.apply(version).entrySet()) {
        String previous = merged.putIfAbsent(entry.getKey(), entry.getValue());
        from.putIfAbsent(entry.getKey(), version.source());
        if (previous != null && !previous.equals(entry.getValue())) {
          throw new CrdGenerationException(
              "CRD "
                  + crd
                  + ": "
                  + from.get(entry.getKey()).getName()
                  + " and "
                  + version.source().getName()
                  + " give "
                  + what
                  + " '"
                  + entry.getKey()
                  + "' different values ('"
                  + previous
                  + "', '"
                  + entry.getValue()
                  + "'); make them agree or declare it on one class only");
        }
      }
    }
    return merged.isEmpty() ? Optional.empty() : Optional.of(merged);
  }

  /**
   * Converge CRDs have no conversion webhook (strategy None): the API server serves a stored object
   * under every version as stored, changing only apiVersion. That is only safe when the versions'
   * schemas agree.
   */
  private static Optional<String> differentSchemas(
      String crd, List<ResourceVersion> versions, ResourceVersion storage) {
    JSONSchemaProps stored = storage.version().getSchema().getOpenAPIV3Schema();
    List<String> differing =
        versions.stream()
            .filter(
                v ->
                    !v.equals(storage)
                        && !Boolean.FALSE.equals(v.version().getServed())
                        && !stored.equals(v.version().getSchema().getOpenAPIV3Schema()))
            .map(v -> v.version().getName() + " (" + v.source().getSimpleName() + ")")
            .toList();
    if (differing.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        "CRD "
            + crd
            + ": the schema of "
            + String.join(", ", differing)
            + " differs from the storage version "
            + storage.version().getName()
            + " ("
            + storage.source().getSimpleName()
            + "), and Converge does not generate conversion (strategy None): the API server returns every stored"
            + " object under each version unchanged except apiVersion, so fields one version lacks are pruned on"
            + " read and its defaults and validation apply to data written under another. Keep the schemas"
            + " identical, or serve only the storage version (@Version(served = false) on the others); after"
            + " changing the storage version, migrate stored objects by rewriting each one (for example kubectl get "
            + crd
            + " -A -o json | kubectl replace -f -) and then drop the old version from the CRD's"
            + " status.storedVersions");
  }
}
