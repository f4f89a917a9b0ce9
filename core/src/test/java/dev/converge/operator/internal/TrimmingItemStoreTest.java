package dev.converge.operator.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class TrimmingItemStoreTest {

  private static final String STORED =
      """
      {"apiVersion":"apps/v1","kind":"Deployment",
       "metadata":{"name":"web","namespace":"shop","resourceVersion":"7",
         "annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}","team":"blue"},
         "managedFields":[
           {"manager":"app-operator","operation":"Apply","apiVersion":"apps/v1",
            "fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{"f:app":{}}},
              "f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{
                "k:{\\"name\\":\\"app\\"}":{".":{},"f:image":{},"f:name":{}}}}}}}},
           {"manager":"kube-controller-manager","operation":"Update","apiVersion":"apps/v1",
            "subresource":"status","fieldsType":"FieldsV1",
            "fieldsV1":{"f:status":{"f:replicas":{}}}}]},
       "spec":{"replicas":1}}
      """;

  private final KubernetesSerialization serialization = new KubernetesSerialization();

  private Deployment stored(boolean trim) {
    TrimmingItemStore<Deployment> store = new TrimmingItemStore<>(trim);
    Deployment arriving = serialization.unmarshal(STORED, Deployment.class);
    store.put(store.getKey(arriving), arriving);
    return store.get("shop/web");
  }

  @Test
  void anOwnedKindKeepsEveryManagedFieldsEntryWithTheSameFields() {
    Deployment kept = stored(false);

    JsonNode expected = serialization.unmarshal(STORED, JsonNode.class).get("metadata");
    JsonNode actual = serialization.convertValue(kept, JsonNode.class).get("metadata");
    assertThat(actual.get("managedFields")).isEqualTo(expected.get("managedFields"));
    assertThat(kept.getMetadata().getAnnotations())
        .containsKey(TrimmingItemStore.LAST_APPLIED)
        .containsEntry("team", "blue");
  }

  @Test
  @SuppressWarnings("unchecked")
  void aCopyOfACompactedObjectCanBeChangedFreely() {
    Deployment kept = stored(false);

    Deployment copy = ObjectCopy.of(kept, serialization);
    Map<String, Object> fields =
        copy.getMetadata().getManagedFields().get(0).getFieldsV1().getAdditionalProperties();
    ((Map<String, Object>) fields.get("f:spec")).put("f:paused", new java.util.LinkedHashMap<>());

    assertThat(copy.getMetadata().getManagedFields().get(0).getFieldsV1().getAdditionalProperties())
        .isNotEqualTo(
            kept.getMetadata().getManagedFields().get(0).getFieldsV1().getAdditionalProperties());
  }

  @Test
  void aKindNoStrategyWritesLosesManagedFieldsAndLastApplied() {
    Deployment trimmed = stored(true);

    assertThat(trimmed.getMetadata().getManagedFields()).isNullOrEmpty();
    assertThat(trimmed.getMetadata().getAnnotations())
        .doesNotContainKey(TrimmingItemStore.LAST_APPLIED)
        .containsEntry("team", "blue");
    assertThat(trimmed.getSpec().getReplicas()).isEqualTo(1);
  }
}
