package dev.converge.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;

import dev.converge.strategy.StrategySelection;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RunSettingsTest {

  private static final StrategySelection SSA = StrategySelection.parse("default=ssa");

  @Test
  void ofGivesAllNamespacesNoLeaseTheSystemClockTheDefaultReviewIntervalAndOneWorker() {
    RunSettings settings = RunSettings.of("shop-operator", SSA);

    assertThat(settings.name()).isEqualTo("shop-operator");
    assertThat(settings.namespaces()).isEmpty();
    assertThat(settings.strategies()).isEqualTo(SSA);
    assertThat(settings.leaderElection()).isEmpty();
    assertThat(settings.clock().getZone()).isEqualTo(ZoneOffset.UTC);
    assertThat(settings.accessReviewInterval()).isEqualTo(Duration.ofMinutes(5));
    assertThat(settings.workers()).isEqualTo(1);
  }

  @Test
  void eachWitherChangesOneSettingAndLeavesTheOriginalAlone() {
    RunSettings base = RunSettings.of("shop-operator", SSA);
    Clock fixed = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    LeaderElection lease = LeaderElection.onLease("ops", "shop-operator");
    StrategySelection update = StrategySelection.parse("default=update");

    RunSettings changed =
        base.withNamespace("b")
            .withNamespace("a")
            .withStrategies(update)
            .withLeaderElection(lease)
            .withClock(fixed)
            .withAccessReviewInterval(Duration.ZERO)
            .withWorkers(8);

    assertThat(changed.namespaces()).containsExactlyInAnyOrder("a", "b");
    assertThat(changed.strategies()).isEqualTo(update);
    assertThat(changed.leaderElection()).contains(lease);
    assertThat(changed.clock()).isSameAs(fixed);
    assertThat(changed.accessReviewInterval()).isZero();
    assertThat(changed.workers()).isEqualTo(8);
    assertThat(changed.withNamespaces(Set.of()).namespaces()).isEmpty();
    assertThat(changed.withLeaderElection(Optional.empty()).leaderElection()).isEmpty();
    assertThat(base).isEqualTo(RunSettings.of("shop-operator", SSA));
  }

  @Test
  void valuesAnOperatorCannotRunWithAreRefusedNamingTheSetting() {
    RunSettings base = RunSettings.of("shop-operator", SSA);
    assertThatThrownBy(() -> base.withWorkers(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("workers")
        .hasMessageContaining("0");
    assertThatThrownBy(() -> base.withAccessReviewInterval(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("accessReviewInterval");
    assertThatThrownBy(() -> RunSettings.of(null, SSA))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("name");
  }

  @Test
  void applyToSetsNameNamespacesLeaseAndReviewIntervalButLeavesStrategiesToTheCaller() {
    LeaderElection lease = LeaderElection.onLease("ops", "shop-operator");
    RunSettings settings =
        RunSettings.of("shop-operator", SSA)
            .withNamespace("shop")
            .withLeaderElection(lease)
            .withAccessReviewInterval(Duration.ofSeconds(30));
    OperatorBuilder builder = Operator.builder(mock(KubernetesClient.class));

    assertThat(settings.applyTo(builder)).isSameAs(builder);

    assertThat(builder.name).isEqualTo("shop-operator");
    assertThat(builder.namespaces).containsExactly("shop");
    assertThat(builder.leaderElection).contains(lease);
    assertThat(builder.accessReviewInterval).isEqualTo(Duration.ofSeconds(30));
    assertThat(builder.strategies).as("left to builder.strategies or StrategiesModule").isEmpty();
  }

  @Test
  void theUserAgentIsTheNameAndTheJarsVersionOrDevFromSources() {
    RunSettings settings = RunSettings.of("shop-operator", SSA);
    // Test classes come from a folder, not a jar with a manifest.
    assertThat(settings.userAgent(RunSettingsTest.class)).isEqualTo("shop-operator/dev");
  }
}
