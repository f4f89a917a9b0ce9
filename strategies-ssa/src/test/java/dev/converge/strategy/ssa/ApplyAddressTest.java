package dev.converge.strategy.ssa;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import org.junit.jupiter.api.Test;

/**
 * The object an apply is addressed with: desired's class, kind, name and namespace, nothing else.
 */
class ApplyAddressTest {

  @Test
  void aTypedObjectIsAddressedByANewObjectOfItsClassWithItsNameAndNamespace() {
    Deployment desired =
        new DeploymentBuilder()
            .withNewMetadata()
            .withName("web")
            .withNamespace("shop")
            .addToLabels("app", "web")
            .endMetadata()
            .withNewSpec()
            .withReplicas(3)
            .endSpec()
            .build();

    Deployment address = ServerSideApplyStrategy.addressOf(desired);

    assertThat(address).isNotSameAs(desired).isInstanceOf(Deployment.class);
    assertThat(address.getApiVersion()).isEqualTo("apps/v1");
    assertThat(address.getKind()).isEqualTo("Deployment");
    assertThat(address.getMetadata().getName()).isEqualTo("web");
    assertThat(address.getMetadata().getNamespace()).isEqualTo("shop");
    assertThat(address.getMetadata().getLabels()).isNullOrEmpty();
    assertThat(address.getSpec()).isNull();
    assertThat(desired.getSpec().getReplicas()).isEqualTo(3);
  }

  @Test
  void aGenericObjectKeepsItsApiVersionAndKind() {
    GenericKubernetesResource desired = new GenericKubernetesResource();
    desired.setApiVersion("shop.example.com/v1");
    desired.setKind("Basket");
    desired.setMetadata(new ObjectMeta());
    desired.getMetadata().setName("b");
    desired.setAdditionalProperty("spec", java.util.Map.of("items", 3));

    GenericKubernetesResource address = ServerSideApplyStrategy.addressOf(desired);

    assertThat(address.getApiVersion()).isEqualTo("shop.example.com/v1");
    assertThat(address.getKind()).isEqualTo("Basket");
    assertThat(address.getMetadata().getName()).isEqualTo("b");
    assertThat(address.getMetadata().getNamespace()).isNull();
    assertThat(address.getAdditionalProperties()).isEmpty();
  }

  /** A kind whose class cannot be made without arguments. */
  static final class Unmakeable extends GenericKubernetesResource {
    Unmakeable(String name) {
      setApiVersion("v1");
      setKind("Unmakeable");
      setMetadata(new ObjectMeta());
      getMetadata().setName(name);
    }
  }

  @Test
  void anObjectWhoseClassCannotBeMadeIsItsOwnAddress() {
    HasMetadata desired = new Unmakeable("u");

    assertThat(ServerSideApplyStrategy.addressOf(desired)).isSameAs(desired);
  }
}
