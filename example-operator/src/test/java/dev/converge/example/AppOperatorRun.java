package dev.converge.example;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.controller.AppDeploymentController;
import dev.converge.operator.RunSettings;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.operator.RunningOperator;
import dev.converge.testing.operator.RunningOperatorBuilder;

/** The AppDeployment operator as the ITs run it: its user agent, its CRD, its namespaces. */
final class AppOperatorRun {

  private AppOperatorRun() {}

  /** As cluster administrator. */
  static RunningOperator start(LocalCluster cluster, RunSettings settings) {
    return builder(cluster, settings)
        .start((client, meters) -> AppOperatorModule.createOperator(client, settings, meters));
  }

  /** Authorized as {@code user} in {@code groups}: that user's RBAC rules are what it may do. */
  static RunningOperator startAs(
      LocalCluster cluster, RunSettings settings, String user, String... groups) {
    return builder(cluster, settings)
        .impersonating(user, groups)
        .start((client, meters) -> AppOperatorModule.createOperator(client, settings, meters));
  }

  /** Reconciles run so far by the AppDeployment controller. */
  static long reconciles(RunningOperator operator) {
    return operator.reconciles(AppDeploymentController.NAME);
  }

  private static RunningOperatorBuilder builder(LocalCluster cluster, RunSettings settings) {
    RunningOperatorBuilder builder =
        RunningOperator.on(cluster)
            .userAgent(OperatorSettings.userAgent())
            .crds(AppDeployment.class);
    settings.namespaces().forEach(builder::namespace);
    return builder;
  }
}
