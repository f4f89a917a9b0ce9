package ${package}.controller;

import ${package}.api.Widget;
import ${package}.api.WidgetStatus;
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
 * Makes the cluster match one Widget: a Deployment of {@code spec.replicas} pods running {@code
 * spec.image}, owned by the Widget (so the garbage collector deletes it with the Widget), and a
 * {@code Ready} condition that tells the user how the rollout goes.
 */
public final class WidgetReconciler implements Reconciler<Widget> {

  public static final String APP_LABEL = "app.kubernetes.io/instance";

  private final Conditions conditions;

  public WidgetReconciler(Conditions conditions) {
    this.conditions = Objects.requireNonNull(conditions, "conditions");
  }

  @Override
  public Result reconcile(Widget widget, Context<Widget> context) {
    // Written through the strategy chosen for apps/v1/Deployment; no request when nothing differs.
    Deployment live = context.apply(desiredDeployment(widget)).live();
    Readiness rollout = WorkloadReadiness.of(live);
    // The wanted condition, folded into the stored ones (lastTransitionTime moves only when the
    // status flips) with the Widget's generation as observedGeneration; written only if it differs.
    context.updateStatus(widget, conditions
        .want(WidgetStatus.READY, ConditionStatus.of(rollout.isCurrent()),
            rollout.isCurrent() ? "AllReplicasReady" : "RollingOut", rollout.message())
        .status(WidgetStatus::new));
    // No polling: the owned Deployment's status changes bring the Widget back.
    return Result.done();
  }

  static Deployment desiredDeployment(Widget widget) {
    String name = widget.getMetadata().getName();
    Map<String, String> labels = Map.of(APP_LABEL, name);
    return new DeploymentBuilder()
        .withMetadata(DependentMetadata.of(widget, labels))
        .withNewSpec()
          .withReplicas(widget.getSpec().replicasOrDefault())
          .withNewSelector().withMatchLabels(labels).endSelector()
          .withNewTemplate()
            .withNewMetadata().withLabels(labels).endMetadata()
            .withNewSpec()
              .addNewContainer().withName("widget").withImage(widget.getSpec().image()).endContainer()
            .endSpec()
          .endTemplate()
        .endSpec()
        .build();
  }
}
