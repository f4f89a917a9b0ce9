package dev.converge.schema;

import static dev.converge.schema.SampleSchemas.DEPLOYMENT;
import static dev.converge.schema.SampleSchemas.DOCUMENT;
import static dev.converge.schema.SampleSchemas.GADGET;
import static dev.converge.schema.SampleSchemas.POD;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OpenApiSchemaTest {

  private static SchemaNode at(SchemaNode node, String... path) {
    SchemaNode current = node;
    for (String step : path) {
      if (step.equals("[]")) {
        current = ((ListSchema) current).items();
      } else {
        current = ((MapSchema) current).child(step);
      }
    }
    return current;
  }

  @Test
  void listTypesAndKeysComeFromTheExtensions() {
    ListSchema containers = (ListSchema) at(POD, "spec", "containers");
    assertThat(containers.type()).isEqualTo(ListType.MAP);
    assertThat(containers.keys()).containsExactly("name");
    assertThat(((ListSchema) at(POD, "spec", "tolerations")).type()).isEqualTo(ListType.ATOMIC);
    assertThat(((ListSchema) at(POD, "metadata", "finalizers")).type()).isEqualTo(ListType.SET);
    ListSchema ports = (ListSchema) at(POD, "spec", "containers", "[]", "ports");
    assertThat(ports.keys()).containsExactly("containerPort", "protocol");
  }

  @Test
  void aMergePatchStrategyWithAKeyMakesAMapListWhenNoListTypeIsGiven() {
    ListSchema volumes = (ListSchema) at(POD, "spec", "volumes");
    assertThat(volumes.type()).isEqualTo(ListType.MAP);
    assertThat(volumes.keys()).containsExactly("name");
  }

  @Test
  void atomicMapsQuantitiesAndIntOrStrings() {
    assertThat(((MapSchema) at(POD, "spec", "nodeSelector")).atomic()).isTrue();
    assertThat(((MapSchema) at(POD, "metadata", "labels")).atomic()).isFalse();
    assertThat(at(POD, "spec", "containers", "[]", "resources", "limits", "cpu"))
        .isEqualTo(ScalarSchema.QUANTITY);
    assertThat(at(POD, "spec", "containers", "[]", "livenessProbe", "httpGet", "port"))
        .isEqualTo(ScalarSchema.INT_OR_STRING);
    assertThat(at(GADGET, "spec", "size")).isEqualTo(ScalarSchema.INT_OR_STRING);
    assertThat(at(GADGET, "spec", "extra", "anything")).isEqualTo(UntypedSchema.INSTANCE);
  }

  @Test
  void builtInStructsOmitZeroValuesAndCustomResourcesDoNot() {
    assertThat(((MapSchema) at(DEPLOYMENT, "spec")).omitsZeroValues()).isTrue();
    assertThat(((MapSchema) at(GADGET, "spec")).omitsZeroValues()).isFalse();
  }

  @Test
  void defaultsOfKeyFieldsAreKept() {
    MapSchema port = (MapSchema) at(POD, "spec", "containers", "[]", "ports", "[]");
    assertThat(port.defaultOf("protocol")).contains("TCP");
  }

  @Test
  void aFieldNamedDescriptionSurvivesTheStrippingOfDescriptions() {
    assertThat(((MapSchema) at(POD, "spec")).isField("description")).isTrue();
    assertThat(at(POD, "spec", "description")).isEqualTo(ScalarSchema.STRING);
  }

  @Test
  void unknownKindsAreEmpty() {
    assertThat(DOCUMENT.kind("", "v1", "Nope")).isEmpty();
    assertThat(DOCUMENT.kind("apps", "v2", "Deployment")).isEmpty();
  }
}
