package dev.converge.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.runtime.RawExtension;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Watch events read through {@link Clients#serialization()} give the objects fabric8's own
 * serialization gives, whatever the order of the properties, and the values the JSON holds.
 */
class WatchEventObjectDeserializerTest {

  private static final String DEPLOYMENT_BODY =
      "\"metadata\":{\"name\":\"web\",\"namespace\":\"shop\",\"resourceVersion\":\"42\","
          + "\"labels\":{\"app\":\"web\"},\"managedFields\":[{\"manager\":\"m\","
          + "\"operation\":\"Apply\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:spec\":{}}}]},"
          + "\"spec\":{\"replicas\":3,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},"
          + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":"
          + "[{\"name\":\"web\",\"image\":\"nginx:1.27\",\"ports\":[{\"containerPort\":80}]}]}}},"
          + "\"status\":{\"observedGeneration\":1,\"replicas\":3}";

  @Test
  void aDeploymentWithItsTypeFirstIsReadIntoItsClass() {
    String json =
        "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\","
            + DEPLOYMENT_BODY
            + "}}";

    WatchEvent event = read(json);

    assertThat(event.getType()).isEqualTo("ADDED");
    assertThat(event.getObject()).isInstanceOf(Deployment.class);
    Deployment deployment = (Deployment) event.getObject();
    assertThat(deployment.getMetadata().getName()).isEqualTo("web");
    assertThat(deployment.getMetadata().getResourceVersion()).isEqualTo("42");
    assertThat(deployment.getMetadata().getManagedFields().get(0).getManager()).isEqualTo("m");
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(3);
    assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
        .isEqualTo("nginx:1.27");
    assertThat(deployment.getStatus().getObservedGeneration()).isEqualTo(1L);
    assertThat(deployment.getApiVersion()).isEqualTo("apps/v1");
    assertThat(deployment.getKind()).isEqualTo("Deployment");
    assertThat(event).isEqualTo(readByFabric8(json));
  }

  @Test
  void theTypeAfterTheBodyAndTheEventsTypeAfterTheObjectAreReadAsWell() {
    String json =
        "{\"object\":{"
            + DEPLOYMENT_BODY
            + ",\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\"},\"type\":\"MODIFIED\"}";

    WatchEvent event = read(json);

    assertThat(event.getType()).isEqualTo("MODIFIED");
    assertThat(event.getObject()).isInstanceOf(Deployment.class);
    assertThat(((Deployment) event.getObject()).getSpec().getReplicas()).isEqualTo(3);
    assertThat(event.getAdditionalProperties()).isEmpty();
    assertThat(event).isEqualTo(readByFabric8(json));
  }

  @Test
  void aKindBetweenOtherPropertiesKeepsThePropertiesBeforeIt() {
    String json =
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"apps/v1\","
            + DEPLOYMENT_BODY
            + ",\"kind\":\"Deployment\"}}";

    WatchEvent event = read(json);

    Deployment deployment = (Deployment) event.getObject();
    assertThat(deployment.getMetadata().getLabels()).isEqualTo(Map.of("app", "web"));
    assertThat(deployment.getStatus().getReplicas()).isEqualTo(3);
    assertThat(event).isEqualTo(readByFabric8(json));
  }

  @Test
  void aRegisteredCustomResourceIsReadIntoItsClass() {
    String json =
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"test.converge.dev/v1\",\"kind\":\"Widget\","
            + "\"metadata\":{\"name\":\"w\",\"namespace\":\"shop\"},\"spec\":{\"size\":7}}}";
    KubernetesSerialization serialization = Clients.serialization();
    serialization.registerKubernetesResource(Widget.class);
    KubernetesSerialization reference = new KubernetesSerialization();
    reference.registerKubernetesResource(Widget.class);

    WatchEvent event = serialization.unmarshal(json, WatchEvent.class);

    assertThat(event.getObject()).isInstanceOf(Widget.class);
    assertThat(((Widget) event.getObject()).getSpec().size).isEqualTo(7);
    WatchEvent expected = reference.unmarshal(json, WatchEvent.class);
    assertThat(((Widget) expected.getObject()).getSpec().size).isEqualTo(7);
    assertThat(((Widget) event.getObject()).getMetadata())
        .isEqualTo(((Widget) expected.getObject()).getMetadata());
  }

  @Test
  void anObjectOfItsTypeAloneIsReadIntoItsClass() {
    String json =
        "{\"object\":{\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\"},\"type\":\"ADDED\"}";

    WatchEvent event = read(json);

    assertThat(event.getObject()).isInstanceOf(Deployment.class);
    assertThat(event.getType()).isEqualTo("ADDED");
    assertThat(event).isEqualTo(readByFabric8(json));
  }

  @Test
  void anUnknownKindIsAGenericResourceWithEveryProperty() {
    String json =
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"example.com/v1\",\"kind\":\"Gadget\","
            + "\"metadata\":{\"name\":\"g\"},\"spec\":{\"parts\":[1,2.5,\"three\",null,true],"
            + "\"nested\":{\"deep\":{\"x\":\"y\"}}}}}";

    WatchEvent event = read(json);

    assertThat(event.getObject()).isInstanceOf(GenericKubernetesResource.class);
    GenericKubernetesResource gadget = (GenericKubernetesResource) event.getObject();
    assertThat(gadget.getKind()).isEqualTo("Gadget");
    assertThat(gadget.getMetadata().getName()).isEqualTo("g");
    assertThat(gadget.<Object>get("spec", "parts"))
        .isEqualTo(java.util.Arrays.asList(1, 2.5, "three", null, true));
    assertThat(gadget.<Object>get("spec", "nested", "deep", "x")).isEqualTo("y");
    assertThat(event).isEqualTo(readByFabric8(json));
  }

  @Test
  void anErrorEventCarriesItsStatus() {
    String json =
        "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\","
            + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"too old resource version\","
            + "\"reason\":\"Expired\",\"code\":410}}";

    WatchEvent event = read(json);

    assertThat(event.getObject()).isInstanceOf(Status.class);
    assertThat(((Status) event.getObject()).getCode()).isEqualTo(410);
    assertThat(((Status) event.getObject()).getReason()).isEqualTo("Expired");
    assertThat(event).isEqualTo(readByFabric8(json));
  }

  @Test
  void anObjectWithoutAKindIsLeftToFabric8() {
    String json =
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"x\"},"
            + "\"data\":[1,{\"a\":\"b\"}]}}";

    WatchEvent event = read(json);

    assertThat(event.getObject()).isInstanceOf(RawExtension.class);
    assertThat(event).isEqualTo(readByFabric8(json));
  }

  @Test
  void aKindThatIsNotTextFailsAsItDoesWithFabric8Alone() {
    String json =
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":{\"odd\":true},"
            + "\"metadata\":{\"name\":\"x\"}}}";

    // fabric8's watch then reads the object as the watched kind instead
    assertThatThrownBy(() -> readByFabric8(json))
        .isInstanceOf(KubernetesClientException.class)
        .rootCause()
        .hasMessageContaining("`stringValue()` cannot convert value {...(1 properties)}");
    assertThatThrownBy(() -> read(json))
        .isInstanceOf(KubernetesClientException.class)
        .rootCause()
        .hasMessageContaining("`stringValue()` cannot convert value {...(1 properties)}");
  }

  @Test
  void aNullObjectStaysNull() {
    String json = "{\"type\":\"BOOKMARK\",\"object\":null}";

    WatchEvent event = read(json);

    assertThat(event.getType()).isEqualTo("BOOKMARK");
    assertThat(event.getObject()).isNull();
  }

  private static WatchEvent read(String json) {
    return Clients.serialization().unmarshal(json, WatchEvent.class);
  }

  private static WatchEvent readByFabric8(String json) {
    return new KubernetesSerialization().unmarshal(json, WatchEvent.class);
  }

  /** A custom resource class registered with the serialization, as an operator's own kinds are. */
  @Group("test.converge.dev")
  @Version("v1")
  public static class Widget extends CustomResource<WidgetSpec, Void> implements Namespaced {}

  /** The spec of {@link Widget}. */
  public static class WidgetSpec {
    public int size;
  }
}
