package dev.converge.operator.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ExtraPropertyMapsTest {

  /** A Deployment with one field its classes do not know, under the pod spec. */
  private static final String DEPLOYMENT =
      """
      {"apiVersion":"apps/v1","kind":"Deployment",
       "metadata":{"name":"web","namespace":"shop","resourceVersion":"7","labels":{"app":"web"},
         "ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"owner","uid":"u-1"}],
         "managedFields":[{"manager":"app-operator","operation":"Apply","apiVersion":"apps/v1",
           "fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}}}]},
       "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
         "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":1}},
         "template":{"metadata":{"labels":{"app":"web"}},
           "spec":{"futureField":{"on":true},
             "containers":[{"name":"app","image":"nginx:1.27",
               "ports":[{"containerPort":8080,"protocol":"TCP"}],
               "resources":{"limits":{"cpu":"500m","memory":"64Mi"}}}]}}},
       "status":{"replicas":2,"conditions":[{"type":"Available","status":"True"}]}}
      """;

  private final KubernetesSerialization serialization = new KubernetesSerialization();

  @Test
  void everyEmptyMapOfAStoredObjectIsTheOneSharedMapAndEveryValueStays() {
    Deployment stored = serialization.unmarshal(DEPLOYMENT, Deployment.class);
    Container container = stored.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(stored.getAdditionalProperties()).isNotSameAs(container.getAdditionalProperties());

    ExtraPropertyMaps.share(stored);

    Map<String, Object> shared = stored.getAdditionalProperties();
    assertThat(shared).isEmpty();
    assertThat(
            java.util.List.of(
                stored.getMetadata().getAdditionalProperties(),
                stored.getMetadata().getOwnerReferences().get(0).getAdditionalProperties(),
                stored.getMetadata().getManagedFields().get(0).getAdditionalProperties(),
                stored.getSpec().getAdditionalProperties(),
                stored.getSpec().getStrategy().getRollingUpdate().getAdditionalProperties(),
                stored.getSpec().getTemplate().getMetadata().getAdditionalProperties(),
                container.getAdditionalProperties(),
                container.getPorts().get(0).getAdditionalProperties(),
                container.getResources().getLimits().get("cpu").getAdditionalProperties(),
                stored.getStatus().getConditions().get(0).getAdditionalProperties()))
        .allSatisfy(map -> assertThat(map).isSameAs(shared));
    assertThat(stored.getSpec().getTemplate().getSpec().getAdditionalProperties())
        .isEqualTo(Map.of("futureField", Map.of("on", true)));
    assertThat(
            stored.getMetadata().getManagedFields().get(0).getFieldsV1().getAdditionalProperties())
        .isEqualTo(Map.of("f:spec", Map.of("f:replicas", Map.of())));
    assertThat(serialization.convertValue(stored, JsonNode.class))
        .isEqualTo(serialization.unmarshal(DEPLOYMENT, JsonNode.class));
  }

  @Test
  void aCopyOfAStoredObjectHasMapsOfItsOwnToChange() {
    Deployment stored = serialization.unmarshal(DEPLOYMENT, Deployment.class);
    ExtraPropertyMaps.share(stored);

    Deployment copy = ObjectCopy.of(stored, serialization);
    copy.setAdditionalProperty("a", 1);
    copy.getMetadata().setAdditionalProperty("b", 2);
    copy.getSpec().getTemplate().getSpec().getContainers().get(0).setAdditionalProperty("c", 3);

    assertThat(copy.getAdditionalProperties()).containsEntry("a", 1);
    assertThat(copy.getMetadata().getAdditionalProperties()).containsEntry("b", 2);
    assertThat(stored.getAdditionalProperties()).isEmpty();
    assertThat(stored.getMetadata().getAdditionalProperties()).isEmpty();
    assertThat(
            stored
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getAdditionalProperties())
        .isEmpty();
    assertThatThrownBy(() -> stored.setAdditionalProperty("d", 4))
        .as("a stored object is read-only")
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aGenericObjectKeepsItsContentAndSharesItsMetadatasEmptyMap() {
    GenericKubernetesResource stored =
        serialization.unmarshal(
            """
            {"apiVersion":"example.dev/v1","kind":"Widget",
             "metadata":{"name":"w","namespace":"shop"},"spec":{"size":3}}
            """,
            GenericKubernetesResource.class);

    ExtraPropertyMaps.share(stored);

    assertThat(stored.getAdditionalProperties()).isEqualTo(Map.of("spec", Map.of("size", 3)));
    assertThat(stored.getMetadata().getAdditionalProperties()).isSameAs(Map.of());
  }

  @Group("example.dev")
  @Version("v1")
  public static class Widget extends CustomResource<Map<String, Object>, Void>
      implements Namespaced {}

  @Test
  void aCustomResourceClassSharesItsMetadatasEmptyMapAndKeepsItsSpec() {
    Widget stored =
        serialization.unmarshal(
            """
            {"apiVersion":"example.dev/v1","kind":"Widget",
             "metadata":{"name":"w","namespace":"shop"},"spec":{"size":3}}
            """,
            Widget.class);

    ExtraPropertyMaps.share(stored);

    assertThat(stored.getMetadata().getAdditionalProperties()).isSameAs(Map.of());
    assertThat(stored.getSpec()).isEqualTo(Map.of("size", 3));
  }
}
