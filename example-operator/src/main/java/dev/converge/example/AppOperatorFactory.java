package dev.converge.example;

import dev.converge.operator.LeaderElection;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorFactory;
import dev.converge.operator.RunSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The operator as {@code deploy/40-deployment.yaml} runs it (default strategies, leader election on
 * the Lease {@code app-operator} in the operator's namespace), for the build step that generates
 * its ClusterRole and leader-election Role ({@code GenerateRbac}, see the pom).
 */
public final class AppOperatorFactory implements OperatorFactory {

  /** The namespace the operator runs in, as deploy/00-namespace.yaml creates it. */
  public static final String NAMESPACE = "app-operator";

  @Override
  public Operator create(KubernetesClient client) {
    RunSettings settings =
        OperatorSettings.defaults()
            .withLeaderElection(LeaderElection.onLease(NAMESPACE, OperatorSettings.OPERATOR_NAME));
    return AppOperatorModule.createOperator(client, settings, new SimpleMeterRegistry());
  }
}
