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

  /**
   * {@code widgets.<group>}, kind {@code Widget}, version {@code v1}.
   *
   * @param group the API group, one no other test class uses
   * @return a builder with open spec and status and a status subresource
   * @throws IllegalArgumentException if {@code group} is null or blank
   */
  public static WidgetCrd inGroup(String group) {
    return new WidgetCrd(group, "v1", KIND, PLURAL);
  }

  /**
   * The definition a custom resource class stands for: its {@code @Group}, {@code @Version}, kind
   * and plural (fabric8's annotations and defaults), so that typed clients of that class find it.
   *
   * @param type the custom resource class
   * @return a builder with open spec and status and a status subresource
   * @throws IllegalArgumentException if the class gives no group, version, kind or plural
   */
  public static WidgetCrd of(Class<? extends HasMetadata> type) {
    return new WidgetCrd(
        HasMetadata.getGroup(type),
        HasMetadata.getVersion(type),
        HasMetadata.getKind(type),
        HasMetadata.getPlural(type));
  }

  /**
   * The schema of {@code spec}; without it, spec keeps any field.
   *
   * @param schema the structural schema of the spec object, for a test that needs typed fields
   *     (defaults, list types, validation)
   * @return this builder
   */
  public WidgetCrd spec(JSONSchemaProps schema) {
    this.spec = Objects.requireNonNull(schema, "schema");
    return this;
  }

  /**
   * The schema of {@code status}; without it, status keeps any field.
   *
   * @param schema the structural schema of the status object
   * @return this builder
   */
  public WidgetCrd status(JSONSchemaProps schema) {
    this.status = Objects.requireNonNull(schema, "schema");
    return this;
  }

  /**
   * Without a {@code /status} subresource: status is then written with the rest of the object and a
   * status change counts as a change of generation.
   *
   * @return this builder
   */
  public WidgetCrd withoutStatusSubresource() {
    this.statusSubresource = false;
    return this;
  }

  /**
   * A {@code /scale} subresource over these paths (for example {@code .spec.replicas} and {@code
   * .status.replicas}), as workload-like custom resources have for {@code kubectl scale} and
   * autoscalers.
   *
   * @param specReplicasPath the JSON path of the wanted replicas, such as {@code .spec.replicas}
   * @param statusReplicasPath the JSON path of the observed replicas, such as {@code
   *     .status.replicas}
   * @return this builder
   * @throws IllegalArgumentException if a path is null or blank
   */
  public WidgetCrd scale(String specReplicasPath, String statusReplicasPath) {
    this.specReplicasPath = requireText(specReplicasPath, "specReplicasPath");
    this.statusReplicasPath = requireText(statusReplicasPath, "statusReplicasPath");
    return this;
  }

  /**
   * The CRD's name, {@code <plural>.<group>}.
   *
   * @return the name of the CustomResourceDefinition object
   */
  public String name() {
    return plural + "." + group;
  }

  /**
   * The API group.
   *
   * @return the group of the custom resources
   */
  public String group() {
    return group;
  }

  /**
   * The {@code apiVersion} of the custom resources, {@code <group>/<version>}.
   *
   * @return the value a test's objects carry in {@code apiVersion}
   */
  public String apiVersion() {
    return group + "/" + version;
  }

  /**
   * The kind.
   *
   * @return the kind of the custom resources, {@value #KIND} unless given by a class
   */
  public String kind() {
    return kind;
  }

  /**
   * The plural, as in the resource's URL path.
   *
   * @return the plural resource name, also what RBAC rules name
   */
  public String plural() {
    return plural;
  }

  /**
   * A new definition each call, to install as cluster administrator.
   *
   * @return the CustomResourceDefinition: namespaced, one served and stored version, with the
   *     subresources and schemas chosen
   */
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
