package dev.converge.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.schema.ApiKind;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class StrategySelectorTest {

  private static ResourceStrategy named(String name) {
    return new ResourceStrategy() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public <R extends HasMetadata> ApplyResult<R> apply(R desired, StrategyContext context) {
        return ApplyResult.unchanged(desired);
      }
    };
  }

  @Test
  void perKindConfigurationOverridesTheDefault() {
    StrategySelection selection =
        StrategySelection.parse("default=update,\napps/v1/Deployment=ssa, v1/Service = update");
    StrategySelector selector =
        new StrategySelector(Map.of("update", named("update"), "ssa", named("ssa")), selection);

    assertThat(selector.forKind(ApiKind.parse("apps/v1/Deployment")).name()).isEqualTo("ssa");
    assertThat(
            selector
                .forResource(
                    new ServiceBuilder().withNewMetadata().withName("s").endMetadata().build())
                .name())
        .isEqualTo("update");
    assertThat(selector.forKind(ApiKind.parse("v1/ConfigMap")).name()).isEqualTo("update");
  }

  @Test
  void unknownNamesAreReportedTogetherWithTheKindsAndWhatIsInstalled() {
    StrategySelection selection =
        StrategySelection.parse("apps/v1/Deployment=sa, v1/Service=sa, v1/Secret=patch");

    assertThatThrownBy(() -> new StrategySelector(Map.of("update", named("update")), selection))
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining("'sa' (for apps/v1/Deployment, v1/Service)")
        .hasMessageContaining("'patch' (for v1/Secret)")
        .hasMessageContaining("'ssa' (for default)")
        .hasMessageContaining("strategies found: [update]")
        .hasMessageContaining("converge-strategies-ssa");
  }

  @Test
  void malformedEntriesNameTheExpectedForm() {
    assertThatThrownBy(() -> StrategySelection.parse("Deployment=ssa"))
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining("apps/v1/Deployment");
    assertThatThrownBy(() -> StrategySelection.parse("apps/v1/Deployment"))
        .hasMessageContaining("no '='");
  }

  @Test
  void propertiesCarryTheSameConfiguration() {
    Properties properties = new Properties();
    properties.setProperty("converge.strategy.default", "merge-patch");
    properties.setProperty("converge.strategy.kind.apps/v1/StatefulSet", "ssa");

    StrategySelection selection = StrategySelection.fromProperties(properties);

    assertThat(selection.defaultStrategy()).isEqualTo("merge-patch");
    assertThat(selection.strategyFor(new ApiKind("apps/v1", "StatefulSet"))).isEqualTo("ssa");
  }

  @Test
  void apiKindRoundTripsThroughItsConfigurationForm() {
    assertThat(ApiKind.parse(" apps/v1/Deployment "))
        .isEqualTo(new ApiKind("apps/v1", "Deployment"));
    assertThat(ApiKind.parse("v1/Service").toString()).isEqualTo("v1/Service");
    assertThatThrownBy(() -> ApiKind.parse("a/b/c/D")).isInstanceOf(IllegalArgumentException.class);
  }
}
