package ${package};

import dev.converge.operator.Operator;
import dev.converge.operator.OperatorFactory;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The operator as {@link ${kind}Operator#main} builds it, for the build step that generates its
 * ClusterRole from it (GenerateRbac in pom.xml): change the operator, and the role follows.
 */
public final class ${kind}OperatorFactory implements OperatorFactory {

  @Override
  public Operator create(KubernetesClient client) {
    return ${kind}Operator.create(client, new SimpleMeterRegistry());
  }
}
