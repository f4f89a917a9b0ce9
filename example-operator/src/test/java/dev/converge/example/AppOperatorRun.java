package dev.converge.example;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.controller.AppDeploymentController;
import dev.converge.operator.DryRunReport;
import dev.converge.operator.OperatorBuilder;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.operator.RunningOperator;
import dev.converge.testing.operator.RunningOperatorBuilder;
import java.util.function.Consumer;

/**
 * The AppDeployment operator as the ITs run it: its defaults, its user agent, its CRD, watching one
 * namespace; {@code settings} change the builder after the defaults, as the flags do.
 */
final class AppOperatorRun {

  private AppOperatorRun() {}

  /** As cluster administrator, with the operator's defaults. */
  static RunningOperator start(LocalCluster cluster, String namespace) {
    return start(cluster, namespace, builder -> {});
  }

  /** As cluster administrator. */
  static RunningOperator start(
      LocalCluster cluster, String namespace, Consumer<OperatorBuilder> settings) {
    return builder(cluster, namespace).start(factory(namespace, settings));
  }

  /** Authorized as {@code user} in {@code groups}: that user's RBAC rules are what it may do. */
  static RunningOperator startAs(
      LocalCluster cluster,
      String namespace,
      Consumer<OperatorBuilder> settings,
      String user,
      String... groups) {
    return builder(cluster, namespace)
        .impersonating(user, groups)
        .start(factory(namespace, settings));
  }

  /**
   * What one pass of the operator would change now, as a dry run: its defaults, then {@code
   * settings}; nothing is persisted.
   */
  static DryRunReport dryRunPass(
      LocalCluster cluster, String namespace, Consumer<OperatorBuilder> settings) {
    return builder(cluster, namespace)
        .dryRunPass(factory(namespace, settings.andThen(builder -> builder.dryRun(true))));
  }

  /** Reconciles run so far by the AppDeployment controller. */
  static long reconciles(RunningOperator operator) {
    return operator.reconciles(AppDeploymentController.NAME);
  }

  private static dev.converge.testing.operator.OperatorFactory factory(
      String namespace, Consumer<OperatorBuilder> settings) {
    return (client, meters) ->
        new AppOperator()
            .operator(
                builder ->
                    settings.accept(
                        builder.client(client).meterRegistry(meters).namespace(namespace)));
  }

  private static RunningOperatorBuilder builder(LocalCluster cluster, String namespace) {
    return RunningOperator.on(cluster)
        .userAgent(AppOperator.NAME + "/test")
        .crds(AppDeployment.class)
        .namespace(namespace);
  }
}
