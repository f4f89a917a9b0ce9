package dev.converge.crd.internal;

import com.fasterxml.classmate.ResolvedType;
import com.fasterxml.classmate.TypeResolver;
import dev.converge.crd.CrdGenerationException;
import dev.converge.crd.annotation.CrdAnnotation;
import dev.converge.crd.annotation.CrdLabel;
import dev.converge.crd.annotation.Description;
import dev.converge.crd.annotation.PrinterColumn;
import dev.converge.crd.annotation.Rule;
import dev.converge.crd.annotation.Scale;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionNames;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionNamesBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceSubresourceScale;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceSubresourceScaleBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceSubresourceStatus;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceSubresources;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.SelectableField;
import io.fabric8.kubernetes.api.model.apiextensions.v1.SelectableFieldBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;
import io.fabric8.kubernetes.model.annotation.Version;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Reads one fabric8 {@link CustomResource} class into its CRD names, scope and version entry. */
public final class ResourceVersionBuilder {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final KubernetesSerialization SERIALIZATION = CrdSerialization.INSTANCE;

  private ResourceVersionBuilder() {}

  /**
   * What one class contributes to a CRD.
   *
   * @param labels labels for the CRD object, from {@code @CrdLabel}
   * @param annotations annotations for the CRD object, from {@code @CrdAnnotation}
   * @param warnings what generation noticed that will not work as the class suggests, each naming
   *     the Java member, the path and the fix
   */
  public record ResourceVersion(
      Class<?> source,
      String crdName,
      String group,
      String scope,
      CustomResourceDefinitionNames names,
      CustomResourceDefinitionVersion version,
      Map<String, String> labels,
      Map<String, String> annotations,
      List<String> warnings) {}

  public static ResourceVersion read(Class<?> resourceClass) {
    String className = resourceClass.getName();
    if (!CustomResource.class.isAssignableFrom(resourceClass)) {
      throw new CrdGenerationException(
          className
              + " is not a custom resource: extend"
              + " io.fabric8.kubernetes.client.CustomResource<Spec, Status>");
    }
    if (Modifier.isAbstract(resourceClass.getModifiers())) {
      throw new CrdGenerationException(
          className + " is abstract; generate CRDs for concrete classes");
    }
    String group = HasMetadata.getGroup(resourceClass);
    Version version = resourceClass.getAnnotation(Version.class);
    if (group == null || group.isBlank() || version == null) {
      throw new CrdGenerationException(
          className
              + " needs @Group(\"example.com\") and @Version(\"v1\") from"
              + " io.fabric8.kubernetes.model.annotation");
    }
    String kind = HasMetadata.getKind(resourceClass);
    String plural = HasMetadata.getPlural(resourceClass);
    String singular = HasMetadata.getSingular(resourceClass);
    String scope = Namespaced.class.isAssignableFrom(resourceClass) ? "Namespaced" : "Cluster";
    CustomResourceDefinitionNames names =
        new CustomResourceDefinitionNamesBuilder()
            .withKind(kind)
            .withListKind(kind + "List")
            .withPlural(plural)
            .withSingular(singular)
            .withShortNames(List.of(CustomResource.getShortNames(resourceClass)))
            .withCategories(List.of(CustomResource.getCategories(resourceClass)))
            .build();

    List<ResolvedType> parameters =
        new TypeResolver().resolve(resourceClass).typeParametersFor(CustomResource.class);
    Optional<ResolvedType> spec = usable(parameters.get(0));
    Optional<ResolvedType> status = usable(parameters.get(1));

    JavaTypeSchemas schemas = new JavaTypeSchemas(resourceClass);
    ObjectNode root = NODES.objectNode();
    root.put("type", "object");
    Description description = resourceClass.getAnnotation(Description.class);
    if (description != null) {
      root.put("description", description.value());
    }
    for (Rule rule : resourceClass.getAnnotationsByType(Rule.class)) {
      KubernetesSchemaModule.addRules(root, new Rule[] {rule});
    }
    ObjectNode properties = root.putObject("properties");
    properties.putObject("apiVersion").put("type", "string");
    properties.putObject("kind").put("type", "string");
    properties.putObject("metadata").put("type", "object");
    List<StructuralSchema.FieldColumn> fieldColumns = new ArrayList<>();
    List<String> selectable = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    spec.ifPresent(
        type -> {
          StructuralSchema.Converted converted =
              schemas.structuralSchema(type, simpleName(type), "spec");
          properties.set("spec", converted.schema());
          fieldColumns.addAll(converted.columns());
          selectable.addAll(converted.selectableFields());
          warnings.addAll(converted.warnings());
          // A spec with required fields is itself required: otherwise an object without any spec
          // passes validation and its required fields and defaults never apply.
          if (converted.schema().path("required").size() > 0) {
            root.putArray("required").add("spec");
          }
        });
    status.ifPresent(
        type -> {
          StructuralSchema.Converted converted =
              schemas.structuralSchema(type, simpleName(type), "status");
          properties.set("status", converted.schema());
          fieldColumns.addAll(converted.columns());
          selectable.addAll(converted.selectableFields());
          warnings.addAll(converted.warnings());
        });
    JSONSchemaProps schema = SERIALIZATION.convertValue(root, JSONSchemaProps.class);

    CustomResourceSubresources subresources = new CustomResourceSubresources();
    status.ifPresent(type -> subresources.setStatus(new CustomResourceSubresourceStatus()));
    scale(resourceClass, spec, status).ifPresent(subresources::setScale);

    CustomResourceDefinitionVersion entry =
        new CustomResourceDefinitionVersionBuilder()
            .withName(version.value())
            .withServed(version.served())
            .withStorage(version.storage())
            .withDeprecated(version.deprecated() ? Boolean.TRUE : null)
            .withDeprecationWarning(
                version.deprecated() && !version.deprecationWarning().isBlank()
                    ? version.deprecationWarning()
                    : null)
            .withNewSchema()
            .withOpenAPIV3Schema(schema)
            .endSchema()
            .withSubresources(
                subresources.getStatus() == null && subresources.getScale() == null
                    ? null
                    : subresources)
            .withAdditionalPrinterColumns(printerColumns(resourceClass, fieldColumns))
            .withSelectableFields(selectableFields(resourceClass, selectable))
            .build();
    return new ResourceVersion(
        resourceClass,
        plural + "." + group,
        group,
        scope,
        names,
        entry,
        pairs(
            resourceClass,
            "@CrdLabel",
            resourceClass.getAnnotationsByType(CrdLabel.class),
            CrdLabel::name,
            CrdLabel::value),
        pairs(
            resourceClass,
            "@CrdAnnotation",
            resourceClass.getAnnotationsByType(CrdAnnotation.class),
            CrdAnnotation::name,
            CrdAnnotation::value),
        List.copyOf(warnings));
  }

  private static <A> Map<String, String> pairs(
      Class<?> resourceClass,
      String what,
      A[] annotations,
      Function<A, String> name,
      Function<A, String> value) {
    Map<String, String> result = new TreeMap<>();
    for (A annotation : annotations) {
      String key = name.apply(annotation);
      if (key.isBlank()) {
        throw new CrdGenerationException(
            resourceClass.getName()
                + ": "
                + what
                + " needs a name, e.g. "
                + what
                + "(name = \"app.kubernetes.io/part-of\", value = \"shop\")");
      }
      String previous = result.put(key, value.apply(annotation));
      if (previous != null && !previous.equals(value.apply(annotation))) {
        throw new CrdGenerationException(
            resourceClass.getName()
                + ": "
                + what
                + " '"
                + key
                + "' is given twice with"
                + " different values ('"
                + previous
                + "', '"
                + value.apply(annotation)
                + "'); keep one");
      }
    }
    return Collections.unmodifiableMap(result);
  }

  private static List<SelectableField> selectableFields(
      Class<?> resourceClass, List<String> fieldPaths) {
    List<String> paths = new ArrayList<>();
    for (dev.converge.crd.annotation.SelectableField field :
        resourceClass.getAnnotationsByType(dev.converge.crd.annotation.SelectableField.class)) {
      if (!field.jsonPath().startsWith(".")) {
        throw new CrdGenerationException(
            resourceClass.getName()
                + ": @SelectableField has jsonPath '"
                + field.jsonPath()
                + "'; on the resource class it needs a path starting with '.', e.g. .spec.color");
      }
      paths.add(field.jsonPath());
    }
    paths.addAll(fieldPaths);
    if (paths.size() > 8) {
      throw new CrdGenerationException(
          resourceClass.getName()
              + " declares "
              + paths.size()
              + " selectable fields "
              + paths
              + "; the API server allows at most 8 per version, remove some @SelectableField");
    }
    if (paths.stream().distinct().count() != paths.size()) {
      throw new CrdGenerationException(
          resourceClass.getName()
              + " declares a selectable field twice "
              + paths
              + "; declare each path once");
    }
    return paths.stream()
        .map(path -> new SelectableFieldBuilder().withJsonPath(path).build())
        .toList();
  }

  private static Optional<ResolvedType> usable(ResolvedType type) {
    Class<?> raw = type.getErasedType();
    return raw == Void.class || raw == Object.class ? Optional.empty() : Optional.of(type);
  }

  private static String simpleName(ResolvedType type) {
    return type.getErasedType().getSimpleName();
  }

  private static List<CustomResourceColumnDefinition> printerColumns(
      Class<?> resourceClass, List<StructuralSchema.FieldColumn> fieldColumns) {
    List<StructuralSchema.FieldColumn> all = new ArrayList<>();
    for (PrinterColumn column : resourceClass.getAnnotationsByType(PrinterColumn.class)) {
      if (column.jsonPath().isEmpty()) {
        throw new CrdGenerationException(
            resourceClass.getName()
                + ": @PrinterColumn '"
                + column.name()
                + "' on the resource class needs a jsonPath, e.g. .spec.replicas");
      }
      all.add(
          new StructuralSchema.FieldColumn(
              column.name(),
              column.jsonPath(),
              column.type().isEmpty() ? "string" : column.type(),
              column.format(),
              column.description(),
              column.priority()));
    }
    all.addAll(fieldColumns);
    List<CustomResourceColumnDefinition> columns = new ArrayList<>();
    for (StructuralSchema.FieldColumn column : all) {
      String type = column.type().toLowerCase(Locale.ROOT);
      if (!List.of("integer", "number", "string", "boolean", "date").contains(type)) {
        throw new CrdGenerationException(
            resourceClass.getName()
                + ": @PrinterColumn '"
                + column.name()
                + "' has type '"
                + column.type()
                + "'; use integer, number, string, boolean or date");
      }
      if (!column.jsonPath().startsWith(".")) {
        throw new CrdGenerationException(
            resourceClass.getName()
                + ": @PrinterColumn '"
                + column.name()
                + "' has jsonPath '"
                + column.jsonPath()
                + "'; it must start with '.', e.g. .spec.replicas");
      }
      columns.add(
          new CustomResourceColumnDefinitionBuilder()
              .withName(column.name())
              .withJsonPath(column.jsonPath())
              .withType(type)
              .withFormat(column.format().isEmpty() ? null : column.format())
              .withDescription(column.description().isEmpty() ? null : column.description())
              .withPriority(column.priority() == 0 ? null : column.priority())
              .build());
    }
    return columns;
  }

  private static Optional<CustomResourceSubresourceScale> scale(
      Class<?> resourceClass, Optional<ResolvedType> spec, Optional<ResolvedType> status) {
    Scale scale = resourceClass.getAnnotation(Scale.class);
    if (scale != null) {
      return Optional.of(
          new CustomResourceSubresourceScaleBuilder()
              .withSpecReplicasPath(scale.specReplicasPath())
              .withStatusReplicasPath(scale.statusReplicasPath())
              .withLabelSelectorPath(
                  scale.labelSelectorPath().isEmpty() ? null : scale.labelSelectorPath())
              .build());
    }
    String specReplicas =
        spec.flatMap(type -> annotatedField(type, SpecReplicas.class, ".spec.")).orElse(null);
    if (specReplicas == null) {
      return Optional.empty();
    }
    return Optional.of(
        new CustomResourceSubresourceScaleBuilder()
            .withSpecReplicasPath(specReplicas)
            .withStatusReplicasPath(
                status
                    .flatMap(type -> annotatedField(type, StatusReplicas.class, ".status."))
                    .orElseThrow(
                        () ->
                            new CrdGenerationException(
                                resourceClass.getName()
                                    + ": @SpecReplicas without"
                                    + " @StatusReplicas on a field of the status class; the scale subresource needs both")))
            .withLabelSelectorPath(
                status
                    .flatMap(type -> annotatedField(type, LabelSelector.class, ".status."))
                    .orElse(null))
            .build());
  }

  private static Optional<String> annotatedField(
      ResolvedType type,
      Class<? extends java.lang.annotation.Annotation> annotation,
      String prefix) {
    for (Class<?> current = type.getErasedType();
        current != null && current != Object.class;
        current = current.getSuperclass()) {
      for (Field field : current.getDeclaredFields()) {
        if (field.isAnnotationPresent(annotation)) {
          com.fasterxml.jackson.annotation.JsonProperty property =
              field.getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class);
          String name =
              property != null && !property.value().isEmpty() ? property.value() : field.getName();
          return Optional.of(prefix + name);
        }
      }
    }
    return Optional.empty();
  }
}
