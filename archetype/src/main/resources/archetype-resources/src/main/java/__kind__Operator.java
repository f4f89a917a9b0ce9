package ${package};

import ${package}.controller.${kind}Controller;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;

/** Runs the ${kind} operator with the kubeconfig (or the in-cluster ServiceAccount) it finds. */
public final class ${kind}Operator {

  public static final String NAME = "${artifactId}";

  /**
   * How each kind is written: Deployments by server-side apply, anything else by JSON merge patch.
   * The status goes through the status subresource either way.
   */
  public static final String STRATEGIES = "default=merge-patch, apps/v1/Deployment=ssa";

  private ${kind}Operator() {}

  /** The operator's settings: the same in production and in the integration test. */
  public static OperatorBuilder configure(OperatorBuilder builder) {
    return builder
        .name(NAME)
        .strategies(STRATEGIES)
        .controller(${kind}Controller.definition(${kind}Controller::cleanUpExternal));
  }

  /** The operator on a client of the caller's, not started (the integration test's). */
  public static Operator create(KubernetesClient client, MeterRegistry meters, String... namespaces) {
    return configure(Operator.builder(client)).meterRegistry(meters).namespaces(List.of(namespaces)).build();
  }

  /** Watches the namespaces given as arguments (all without any), until SIGTERM. */
  public static void main(String[] args) {
    Operator operator =
        configure(Operator.builder()).namespaces(List.of(args)).httpPort(8081).build();
    System.exit(operator.run());
  }
}
