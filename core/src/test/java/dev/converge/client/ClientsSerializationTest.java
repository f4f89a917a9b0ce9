package dev.converge.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What {@link Clients#serialization()} reads and writes, and how it calls into model classes. */
class ClientsSerializationTest {

  @AfterEach
  void clearProperty() {
    System.clearProperty(Clients.BLACKBIRD);
  }

  @Test
  void setsPropertiesThroughGeneratedSettersAndKeepsFabric8sHandlingAroundThem() {
    Probe probe = Clients.serialization().unmarshal("{\"name\":\"x\"}", Probe.class);

    assertThat(probe.name).isEqualTo("x");
    assertThat(probe.callers)
        .contains("io.fabric8.kubernetes.model.jackson.SettableBeanPropertyDelegating")
        .anyMatch(c -> c.startsWith("tools.jackson.module.blackbird."))
        .doesNotContain("tools.jackson.databind.deser.impl.MethodProperty");
  }

  @Test
  void withBlackbirdTurnedOffJacksonsOwnSettersAreUsed() {
    System.setProperty(Clients.BLACKBIRD, "false");

    Probe probe = Clients.serialization().unmarshal("{\"name\":\"x\"}", Probe.class);

    assertThat(probe.name).isEqualTo("x");
    assertThat(probe.callers)
        .contains("tools.jackson.databind.deser.impl.MethodProperty")
        .noneMatch(c -> c.startsWith("tools.jackson.module.blackbird."));
  }

  @Test
  void writesAndReadsTheSameJsonAsFabric8() {
    Deployment deployment =
        new DeploymentBuilder()
            .withNewMetadata()
            .withName("web")
            .withNamespace("shop")
            .addToLabels("app", "web")
            .endMetadata()
            .withNewSpec()
            .withReplicas(2)
            .withNewTemplate()
            .withNewSpec()
            .addNewContainer()
            .withName("web")
            .withImage("nginx:1.27")
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();
    deployment.getMetadata().setAdditionalProperty("extra", List.of(1, "two"));
    KubernetesSerialization ours = Clients.serialization();
    KubernetesSerialization fabric8 = new KubernetesSerialization();

    String json = ours.asJson(deployment);

    assertThat(json).isEqualTo(fabric8.asJson(deployment));
    assertThat(ours.unmarshal(json, Deployment.class))
        .isEqualTo(fabric8.unmarshal(json, Deployment.class))
        .isEqualTo(deployment);
  }

  /** A class of a user's, recording who called its setter. */
  public static class Probe {
    String name;
    final List<String> callers = new ArrayList<>();

    public void setName(String name) {
      this.name = name;
      for (StackTraceElement frame : new Throwable().getStackTrace()) {
        callers.add(frame.getClassName());
      }
    }

    public String getName() {
      return name;
    }
  }
}
