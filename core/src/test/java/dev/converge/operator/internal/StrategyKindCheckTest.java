package dev.converge.operator.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.schema.ApiKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class StrategyKindCheckTest {

  private static final List<ApiKind> SERVED =
      List.of(
          ApiKind.parse("apps/v1/Deployment"),
          ApiKind.parse("apps/v1/DaemonSet"),
          ApiKind.parse("v1/Service"),
          ApiKind.parse("v1/ServiceAccount"),
          ApiKind.parse("batch/v1/Job"));

  @Test
  void aMisspeltKindIsMatchedToTheNearestServedOne() {
    assertThat(StrategyKindCheck.nearest(ApiKind.parse("apps/v1/Deploymnet"), SERVED))
        .contains(ApiKind.parse("apps/v1/Deployment"));
    assertThat(StrategyKindCheck.nearest(ApiKind.parse("v1/Servce"), SERVED))
        .contains(ApiKind.parse("v1/Service"));
    assertThat(StrategyKindCheck.nearest(ApiKind.parse("apps/v1/deployment"), SERVED))
        .contains(ApiKind.parse("apps/v1/Deployment"));
  }

  @Test
  void theRightKindInAnUnservedVersionIsPointedToAServedOne() {
    assertThat(StrategyKindCheck.nearest(ApiKind.parse("apps/v1beta9/Deployment"), SERVED))
        .contains(ApiKind.parse("apps/v1/Deployment"));
  }

  @Test
  void nothingFarAwayIsSuggested() {
    assertThat(StrategyKindCheck.nearest(ApiKind.parse("example.com/v1/Widget"), SERVED)).isEmpty();
  }

  @Test
  void distanceCountsATranspositionAsOneEdit() {
    assertThat(StrategyKindCheck.distance("deploymnet", "deployment")).isEqualTo(1);
    assertThat(StrategyKindCheck.distance("service", "servce")).isEqualTo(1);
    assertThat(StrategyKindCheck.distance("abc", "abc")).isZero();
  }
}
