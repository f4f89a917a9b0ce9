package dev.converge.operator.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectCopyTest {

  private final KubernetesSerialization serialization = new KubernetesSerialization();

  private static Deployment cached() {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("f:replicas", new LinkedHashMap<>());
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("f:spec", spec);
    FieldsV1 fieldsV1 = new FieldsV1();
    fieldsV1.setAdditionalProperties(fields);
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName("web")
        .withNamespace("shop")
        .withResourceVersion("42")
        .addToLabels("app", "web")
        .addToAnnotations("note", "cached")
        .addToManagedFields(
            new ManagedFieldsEntryBuilder()
                .withManager("app-operator")
                .withOperation("Apply")
                .withApiVersion("apps/v1")
                .withFieldsType("FieldsV1")
                .withFieldsV1(fieldsV1)
                .build())
        .endMetadata()
        .withNewSpec()
        .withReplicas(2)
        .withNewTemplate()
        .withNewSpec()
        .addNewContainer()
        .withName("app")
        .withImage("nginx:1.27")
        .withNewResources()
        .addToLimits("cpu", new Quantity("500m"))
        .endResources()
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .withNewStatus()
        .withReadyReplicas(2)
        .endStatus()
        .build();
  }

  @Test
  void aCopyHoldsTheSameObject() {
    Deployment original = cached();

    Deployment copy = ObjectCopy.of(original, serialization);

    assertThat(copy).isNotSameAs(original).isEqualTo(original);
    assertThat(serialization.asJson(copy)).isEqualTo(serialization.asJson(original));
  }

  @Test
  @SuppressWarnings("unchecked")
  void changingTheCopyAnywhereLeavesTheCachedObjectAsItWas() {
    Deployment original = cached();
    String before = serialization.asJson(original);

    Deployment copy = ObjectCopy.of(original, serialization);
    copy.getMetadata().getLabels().put("app", "changed");
    copy.getMetadata().getAnnotations().clear();
    copy.getSpec().setReplicas(5);
    copy.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("evil:1");
    copy.getSpec()
        .getTemplate()
        .getSpec()
        .getContainers()
        .get(0)
        .getResources()
        .getLimits()
        .put("memory", new Quantity("1Gi"));
    copy.getStatus().setReadyReplicas(0);
    Map<String, Object> fields =
        copy.getMetadata().getManagedFields().get(0).getFieldsV1().getAdditionalProperties();
    ((Map<String, Object>) fields.get("f:spec")).put("f:paused", new LinkedHashMap<>());
    copy.getMetadata().getManagedFields().get(0).setManager("someone-else");

    assertThat(serialization.asJson(original)).isEqualTo(before);
  }
}
