package ${package}.controller;

import ${package}.api.${kind};
import ${package}.api.${kind}Status;
import dev.converge.owner.DependentMetadata;
import dev.converge.reconcile.Context;
import dev.converge.reconcile.Reconciler;
import dev.converge.reconcile.Result;
import dev.converge.status.ConditionStatus;
import dev.converge.status.Conditions;
import dev.converge.workload.Readiness;
import dev.converge.workload.WorkloadReadiness;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.Map;
import java.util.Objects;

/**
 * Makes the cluster match one ${kind}: a Deployment of {@code spec.replicas} pods running {@code
 * spec.image}, owned by the ${kind} (so the garbage collector deletes it with the ${kind}), and a
 * {@code Ready} condition that tells the user how the rollout goes.
 */
public final class ${kind}Reconciler implements Reconciler<${kind}> {

  public static final String APP_LABEL = "app.kubernetes.io/instance";

  private final Conditions conditions;

  public ${kind}Reconciler(Conditions conditions) {
    this.conditions = Objects.requireNonNull(conditions, "conditions");
  }

  @Override
  public Result reconcile(${kind} ${kindLower}, Context<${kind}> context) {
    // Written through the strategy chosen for apps/v1/Deployment; no request when nothing differs.
    Deployment live = context.apply(desiredDeployment(${kindLower})).live();
    Readiness rollout = WorkloadReadiness.of(live);
    // The wanted condition, folded into the stored ones (lastTransitionTime moves only when the
    // status flips) with the ${kind}'s generation as observedGeneration; written only if it differs.
    context.updateStatus(${kindLower}, conditions
        .want(${kind}Status.READY, ConditionStatus.of(rollout.isCurrent()),
            rollout.isCurrent() ? "AllReplicasReady" : "RollingOut", rollout.message())
        .status(${kind}Status::new));
    // No polling: the owned Deployment's status changes bring the ${kind} back.
    return Result.done();
  }

  static Deployment desiredDeployment(${kind} ${kindLower}) {
    String name = ${kindLower}.getMetadata().getName();
    Map<String, String> labels = Map.of(APP_LABEL, name);
    return new DeploymentBuilder()
        .withMetadata(DependentMetadata.of(${kindLower}, labels))
        .withNewSpec()
          .withReplicas(${kindLower}.getSpec().replicasOrDefault())
          .withNewSelector().withMatchLabels(labels).endSelector()
          .withNewTemplate()
            .withNewMetadata().withLabels(labels).endMetadata()
            .withNewSpec()
              .addNewContainer().withName("${kindLower}").withImage(${kindLower}.getSpec().image()).endContainer()
            .endSpec()
          .endTemplate()
        .endSpec()
        .build();
  }
}
