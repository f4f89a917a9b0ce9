package dev.converge.unittest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.owner.InvalidOwnerException;
import dev.converge.owner.OwnerReferences;
import dev.converge.reconcile.ApplyOptions;
import dev.converge.status.StatusOutcome;
import dev.converge.strategy.ApplyOutcome;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestContextTest {

  // A Deployment stands in for a custom primary: it has metadata, spec and status.
  private static Deployment primary() {
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName("web")
        .withNamespace("shop")
        .withGeneration(2L)
        .endMetadata()
        .withNewSpec()
        .withReplicas(1)
        .endSpec()
        .build();
  }

  private static ConfigMap desired(String value) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("web-cfg")
        .withNamespace("shop")
        .endMetadata()
        .withData(Map.of("k", value))
        .build();
  }

  @Test
  void applyCreatesThenReportsUnchangedThenUpdatedAndSetsTheOwner() {
    TestContext<Deployment> context = TestContext.of(primary());

    assertThat(context.apply(desired("1")).outcome()).isEqualTo(ApplyOutcome.CREATED);
    assertThat(context.apply(desired("1")).outcome()).isEqualTo(ApplyOutcome.UNCHANGED);
    var updated = context.apply(desired("2"));

    assertThat(updated.outcome()).isEqualTo(ApplyOutcome.UPDATED);
    assertThat(updated.live().getMetadata().getGeneration()).isEqualTo(2L);
    assertThat(OwnerReferences.isControlledBy(updated.live(), context.primary())).isTrue();
    assertThat(context.owned(ConfigMap.class)).hasSize(1);
    assertThat(context.applied(ConfigMap.class)).hasSize(3);
  }

  @Test
  void createOnlyCreatesOnceAndThenLeavesTheObjectAsItIs() {
    TestContext<Deployment> context = TestContext.of(primary());
    ApplyOptions createOnly = ApplyOptions.usingStrategy("create-only");

    assertThat(context.apply(desired("first"), createOnly).outcome())
        .isEqualTo(ApplyOutcome.CREATED);
    var again = context.apply(desired("second"), createOnly);

    assertThat(again.outcome()).isEqualTo(ApplyOutcome.UNCHANGED);
    assertThat(again.live().getData()).containsEntry("k", "first");
    assertThat(context.get(ConfigMap.class, "web-cfg").orElseThrow().getData())
        .containsEntry("k", "first");
    assertThat(context.applied(ConfigMap.class)).hasSize(2);
  }

  @Test
  void aLiveStatusSurvivesAnApplyAsOnTheServer() {
    TestContext<Deployment> context = TestContext.of(primary());
    Deployment child =
        new DeploymentBuilder()
            .withNewMetadata()
            .withName("child")
            .withNamespace("shop")
            .endMetadata()
            .withNewSpec()
            .withReplicas(2)
            .endSpec()
            .build();
    context.apply(child);
    context.edit(
        Deployment.class,
        "child",
        d -> d.setStatus(new DeploymentStatusBuilder().withReadyReplicas(2).build()));

    var again =
        context.apply(new DeploymentBuilder(child).editSpec().withReplicas(3).endSpec().build());

    assertThat(again.live().getStatus().getReadyReplicas()).isEqualTo(2);
    assertThat(again.live().getSpec().getReplicas()).isEqualTo(3);
  }

  @Test
  void anObjectANamespacedPrimaryCannotOwnNamesTheOptOut() {
    TestContext<Deployment> context = TestContext.of(primary());
    Namespace clusterScoped =
        new NamespaceBuilder().withNewMetadata().withName("team").endMetadata().build();

    assertThatThrownBy(() -> context.apply(clusterScoped))
        .isInstanceOf(InvalidOwnerException.class)
        .hasMessageContaining("ApplyOptions.withoutOwnerReference()");
    assertThat(context.apply(clusterScoped, ApplyOptions.withoutOwnerReference()).outcome())
        .isEqualTo(ApplyOutcome.CREATED);
  }

  @Test
  void statusIsWrittenOnlyWhenItDiffersAndAGonePrimaryIsDone() {
    TestContext<Deployment> context = TestContext.of(primary());
    var ready = new DeploymentStatusBuilder().withReadyReplicas(1).build();

    assertThat(context.updateStatus(context.primary(), d -> d.setStatus(ready)).written()).isTrue();
    assertThat(context.updateStatus(context.primary(), d -> d.setStatus(ready)).written())
        .isFalse();
    assertThat(context.statusWrites()).hasSize(1);
    assertThat(context.primary().getStatus().getReadyReplicas()).isEqualTo(1);

    Deployment read = context.primary();
    context.deletePrimary();
    assertThat(context.updateStatus(read, d -> d.setStatus(null)))
        .isInstanceOf(StatusOutcome.Gone.class);
  }

  @Test
  void eventsAreRecordedAndTheClientIsRefused() {
    TestContext<Deployment> context = TestContext.of(primary());
    context.events().warning(context.primary(), "InvalidSpec", "spec.x is wrong");

    assertThat(context.recordedEvents())
        .singleElement()
        .satisfies(e -> assertThat(e.reason()).isEqualTo("InvalidSpec"));
    assertThatThrownBy(context::client)
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("integration test");
  }
}
