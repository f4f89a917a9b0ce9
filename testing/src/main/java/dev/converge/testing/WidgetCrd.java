package dev.converge.testing;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceSubresourcesBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import java.util.Locale;
import java.util.Objects;

/**
 * The "Widget" custom resource definition the tests of Converge and of its users run against: a
 * namespaced kind, one served and stored version, a status subresource, and a spec and status that
 * keep whatever fields a test writes unless the test gives them a schema. CRDs are cluster-wide
 * while a test cluster is shared by many test classes, so each class gives its definition a group
 * (or a class) of its own.
 *
 * <p>This is only the definition; install it with {@code CrdInstaller} (crd-gen), which waits until
 * the API server serves the kind and publishes its schema, or with {@code TestCrds.install} of
 * converge-testing-operator.
 *
 * <pre>{@code
 * CustomResourceDefinition crd = WidgetCrd.inGroup("finalizers.it.example.com").build();
 * CustomResourceDefinition typed =
 *     WidgetCrd.inGroup(group).spec(schema).scale(".spec.replicas", ".status.replicas").build();
 * CustomResourceDefinition forClass = WidgetCrd.of(MyWidget.class).build();
 * }</pre>
 */
public final class WidgetCrd {

  /** The kind's name when a test does not give a class. */
  public static final String KIND = "Widget";

  /** The plural of {@link #KIND}. */
  public static final String PLURAL = "widgets";

  private final String group;
  private final String version;
  private final String kind;
  private final String plural;
  private JSONSchemaProps spec = open();
  private JSONSchemaProps status = open();
  private boolean statusSubresource = true;
  private String specReplicasPath;
  private String statusReplicasPath;

  private WidgetCrd(String group, String version, String kind, String plural) {
    this.group = requireText(group, "group");
    this.version = requireText(version, "version");
    this.kind = requireText(kind, "kind");
    this.plural = requireText(plural, "plural");
  }

  /** {@code widgets.<group>}, kind {@code Widget}, version {@code v1}. */
  public static WidgetCrd inGroup(String group) {
    return new WidgetCrd(group, "v1", KIND, PLURAL);
  }

  /**
   * The definition a custom resource class stands for: its {@code @Group}, {@code @Version}, kind
   * and plural (fabric8's annotations and defaults), so that typed clients of that class find it.
   */
  public static WidgetCrd of(Class<? extends HasMetadata> type) {
    return new WidgetCrd(
        HasMetadata.getGroup(type),
        HasMetadata.getVersion(type),
        HasMetadata.getKind(type),
        HasMetadata.getPlural(type));
  }

  /** The schema of {@code spec}; without it, spec keeps any field. */
  public WidgetCrd spec(JSONSchemaProps schema) {
    this.spec = Objects.requireNonNull(schema, "schema");
    return this;
  }

  /** The schema of {@code status}; without it, status keeps any field. */
  public WidgetCrd status(JSONSchemaProps schema) {
    this.status = Objects.requireNonNull(schema, "schema");
    return this;
  }

  /**
   * Without a {@code /status} subresource: status is then written with the rest of the object and a
   * status change counts as a change of generation.
   */
  public WidgetCrd withoutStatusSubresource() {
    this.statusSubresource = false;
    return this;
  }

  /**
   * A {@code /scale} subresource over these paths (for example {@code .spec.replicas} and {@code
   * .status.replicas}), as workload-like custom resources have for {@code kubectl scale} and
   * autoscalers.
   */
  public WidgetCrd scale(String specReplicasPath, String statusReplicasPath) {
    this.specReplicasPath = requireText(specReplicasPath, "specReplicasPath");
    this.statusReplicasPath = requireText(statusReplicasPath, "statusReplicasPath");
    return this;
  }

  /** The CRD's name, {@code <plural>.<group>}. */
  public String name() {
    return plural + "." + group;
  }

  /** The API group. */
  public String group() {
    return group;
  }

  /** The {@code apiVersion} of the custom resources, {@code <group>/<version>}. */
  public String apiVersion() {
    return group + "/" + version;
  }

  /** The kind. */
  public String kind() {
    return kind;
  }

  /** The plural, as in the resource's URL path. */
  public String plural() {
    return plural;
  }

  /** A new definition each call, to install as cluster administrator. */
  public CustomResourceDefinition build() {
    CustomResourceSubresourcesBuilder subresources = new CustomResourceSubresourcesBuilder();
    if (statusSubresource) {
      subresources.withNewStatus().endStatus();
    }
    if (specReplicasPath != null) {
      subresources
          .withNewScale()
          .withSpecReplicasPath(specReplicasPath)
          .withStatusReplicasPath(statusReplicasPath)
          .endScale();
    }
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata()
        .withName(name())
        .endMetadata()
        .withNewSpec()
        .withGroup(group)
        .withScope("Namespaced")
        .withNewNames()
        .withKind(kind)
        .withListKind(kind + "List")
        .withPlural(plural)
        .withSingular(kind.toLowerCase(Locale.ROOT))
        .endNames()
        .addNewVersion()
        .withName(version)
        .withServed(true)
        .withStorage(true)
        .withSubresources(
            statusSubresource || specReplicasPath != null ? subresources.build() : null)
        .withNewSchema()
        .withOpenAPIV3Schema(
            new JSONSchemaPropsBuilder()
                .withType("object")
                .addToProperties("spec", new JSONSchemaPropsBuilder(spec).build())
                .addToProperties("status", new JSONSchemaPropsBuilder(status).build())
                .build())
        .endSchema()
        .endVersion()
        .endSpec()
        .build();
  }

  private static JSONSchemaProps open() {
    return new JSONSchemaPropsBuilder()
        .withType("object")
        .withXKubernetesPreserveUnknownFields(true)
        .build();
  }

  private static String requireText(String value, String what) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("Widget CRD: " + what + " must not be empty");
    }
    return value;
  }
}
