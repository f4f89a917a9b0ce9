package dev.converge.crd.internal;

import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.module.jackson.JacksonOption;
import com.github.victools.jsonschema.module.jackson.JacksonSchemaModule;
import com.github.victools.jsonschema.module.jakarta.validation.JakartaValidationModule;
import com.github.victools.jsonschema.module.jakarta.validation.JakartaValidationOption;
import java.lang.reflect.Type;
import tools.jackson.databind.node.ObjectNode;

/**
 * Generates the structural schema of one Java type: victools with the Jackson, Jakarta Validation
 * and Kubernetes modules, then {@link StructuralSchema}.
 */
public final class JavaTypeSchemas {

  private final SchemaGenerator generator;

  /**
   * @param resourceClass the custom resource class whose parts are generated
   */
  public JavaTypeSchemas(Class<?> resourceClass) {
    SchemaGeneratorConfigBuilder builder =
        new SchemaGeneratorConfigBuilder(SchemaVersion.DRAFT_2020_12, OptionPreset.PLAIN_JSON)
            .without(Option.SCHEMA_VERSION_INDICATOR, Option.ALLOF_CLEANUP_AT_THE_END)
            .with(
                Option.DEFINITIONS_FOR_ALL_OBJECTS,
                Option.DEFINITION_FOR_MAIN_SCHEMA,
                Option.FLATTENED_ENUMS,
                Option.FLATTENED_OPTIONALS,
                Option.MAP_VALUES_AS_ADDITIONAL_PROPERTIES,
                Option.NONPUBLIC_NONSTATIC_FIELDS_WITHOUT_GETTERS)
            .with(
                new JacksonSchemaModule(
                    JacksonOption.FLATTENED_ENUMS_FROM_JSONVALUE,
                    JacksonOption.FLATTENED_ENUMS_FROM_JSONPROPERTY,
                    JacksonOption.RESPECT_JSONPROPERTY_REQUIRED,
                    JacksonOption.RESPECT_JSONPROPERTY_ORDER,
                    JacksonOption.SKIP_SUBTYPE_LOOKUP,
                    JacksonOption.IGNORE_TYPE_INFO_TRANSFORM))
            .with(
                new JakartaValidationModule(
                    JakartaValidationOption.NOT_NULLABLE_FIELD_IS_REQUIRED,
                    JakartaValidationOption.INCLUDE_PATTERN_EXPRESSIONS))
            .with(new KubernetesSchemaModule(resourceClass));
    this.generator = new SchemaGenerator(builder.build());
  }

  /**
   * The structural schema of a Java type.
   *
   * @param type the Java type (generic types resolved)
   * @param typeName its simple name, for messages
   * @param path where it sits in the resource, e.g. {@code spec}
   */
  public StructuralSchema.Converted structuralSchema(Type type, String typeName, String path) {
    ObjectNode generated = generator.generateSchema(type);
    return StructuralSchema.convert(generated, typeName, path);
  }
}
