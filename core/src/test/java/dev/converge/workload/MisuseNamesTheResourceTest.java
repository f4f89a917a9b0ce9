package dev.converge.workload;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.confighash.ConfigHash;
import dev.converge.owner.DependentMetadata;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A helper given the wrong object names it as every Converge message does: Kind namespace/name. */
class MisuseNamesTheResourceTest {

  private static final ConfigMap SETTINGS =
      new ConfigMapBuilder()
          .withNewMetadata()
          .withNamespace("shop")
          .withName("settings")
          .endMetadata()
          .build();

  @Test
  void readinessOfAKindWithoutOne() {
    assertThatThrownBy(() -> WorkloadReadiness.of(SETTINGS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ConfigMap shop/settings is none of them");
  }

  @Test
  void aDependentWithoutAName() {
    assertThatThrownBy(() -> DependentMetadata.of(SETTINGS, " ", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a dependent of ConfigMap shop/settings needs a name");
  }

  @Test
  void aConfigHashOfNeitherConfigMapNorSecret() {
    var account =
        new ServiceAccountBuilder()
            .withNewMetadata()
            .withNamespace("shop")
            .withName("robot")
            .endMetadata()
            .build();
    assertThatThrownBy(() -> ConfigHash.of(List.of(SETTINGS, account)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ServiceAccount shop/robot is neither");
  }
}
