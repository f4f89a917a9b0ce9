package ${package}.controller;

import static org.assertj.core.api.Assertions.assertThat;

import ${package}.api.${kind};
import ${package}.api.${kind}Spec;
import ${package}.api.${kind}Status;
import dev.converge.reconcile.Result;
import dev.converge.status.Conditions;
import dev.converge.unittest.TestContext;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The reconciler alone, on a context in memory: no cluster, a fixed clock. */
class ${kind}ReconcilerTest {

  private final ${kind}Reconciler reconciler = new ${kind}Reconciler(
      new Conditions(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC)));

  @Test
  void a${kind}GetsADeploymentAndTurnsReadyWhenItsPodsAre() throws Exception {
    ${kind} ${kindLower} = ${kind}.of("shop", "web", new ${kind}Spec("nginx:1.27", 2));
    ${kindLower}.getMetadata().setGeneration(1L);
    TestContext<${kind}> context = TestContext.of(${kindLower});

    assertThat(reconciler.reconcile(context.primary(), context)).isEqualTo(Result.done());

    Deployment deployment = context.applied(Deployment.class).get(0);
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
    assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
        .isEqualTo("nginx:1.27");
    assertThat(ready(context).getStatus()).isEqualTo("False");

    // The Deployment controller's part: every pod of the current template ready.
    context.edit(Deployment.class, "web", d -> d.setStatus(new DeploymentStatusBuilder()
        .withObservedGeneration(d.getMetadata().getGeneration())
        .withReplicas(2).withUpdatedReplicas(2).withReadyReplicas(2).withAvailableReplicas(2)
        .build()));
    reconciler.reconcile(context.primary(), context);

    Condition ready = ready(context);
    assertThat(ready.getStatus()).isEqualTo("True");
    assertThat(ready.getReason()).isEqualTo("AllReplicasReady");
    assertThat(context.primary().getStatus().observedGeneration()).isEqualTo(1L);
  }

  @Test
  void aSecondPassWithNothingChangedWritesNothing() throws Exception {
    ${kind} ${kindLower} = ${kind}.of("shop", "web", new ${kind}Spec("nginx:1.27", 1));
    ${kindLower}.getMetadata().setGeneration(1L);
    TestContext<${kind}> context = TestContext.of(${kindLower});
    reconciler.reconcile(context.primary(), context);
    int writes = context.statusWrites().size();

    reconciler.reconcile(context.primary(), context);

    assertThat(context.statusWrites()).hasSize(writes);
  }

  private static Condition ready(TestContext<${kind}> context) {
    return Conditions.find(context.primary().getStatus().conditions(), ${kind}Status.READY)
        .orElseThrow(() -> new AssertionError("no Ready condition"));
  }
}
