package dev.converge.crd;

import dev.converge.crd.internal.CrdSerialization;
import dev.converge.crd.internal.ResourceVersionBuilder;
import dev.converge.crd.internal.ResourceVersionBuilder.ResourceVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Generates {@code apiextensions.k8s.io/v1} CustomResourceDefinitions from fabric8
 * {@link io.fabric8.kubernetes.client.CustomResource} classes.
 *
 * <p>Names come from fabric8's {@code @Group}, {@code @Version}, {@code @Kind}, {@code @Plural},
 * {@code @Singular}, {@code @ShortNames} and {@code @Categories}; the scope from
 * {@link io.fabric8.kubernetes.api.model.Namespaced}. Classes that share group and plural are versions
 * of one CRD: exactly one of them must be {@code @Version(storage = true)}. The schema comes from the
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

  private CrdGenerator() {
  }

  /**
   * @return one entry per CRD, sorted by name
   * @throws CrdGenerationException naming the class or Java member that cannot be expressed
   */
  public static List<GeneratedCrd> generate(Class<?>... resourceClasses) {
    return generate(Arrays.asList(resourceClasses));
  }

  /** @see #generate(Class[]) */
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
        throw new CrdGenerationException("CRD " + name + ": " + first.source().getName() + " and "
            + other.source().getName() + " are versions of one CRD but differ in kind, names, short names,"
            + " categories or scope (Namespaced); make them agree");
      }
      if (other.version().getName().equals(first.version().getName())) {
        throw new CrdGenerationException("CRD " + name + ": " + first.source().getName() + " and "
            + other.source().getName() + " both declare version " + first.version().getName());
      }
    }
    List<ResourceVersion> storage = versions.stream().filter(v -> v.version().getStorage()).toList();
    if (storage.size() != 1) {
      throw new CrdGenerationException("CRD " + name + " needs exactly one storage version but has "
          + storage.size() + " (" + storage.stream().map(v -> v.source().getSimpleName() + " "
          + v.version().getName()).collect(Collectors.joining(", ")) + " among "
          + versions.stream().map(v -> v.version().getName()).collect(Collectors.joining(", "))
          + "); mark the others @Version(value = \"...\", storage = false)");
    }
    List<CustomResourceDefinitionVersion> entries = versions.stream().map(ResourceVersion::version).toList();
    CustomResourceDefinition definition = new CustomResourceDefinitionBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewSpec()
        .withGroup(first.group())
        .withScope(first.scope())
        .withNames(first.names())
        .withVersions(entries)
        .endSpec()
        .build();
    return new GeneratedCrd(name, definition, SERIALIZATION.asYaml(definition));
  }
}
