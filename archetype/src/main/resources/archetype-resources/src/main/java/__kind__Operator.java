package ${package};

import ${package}.controller.${kind}Controller;
import dev.converge.client.Clients;
import dev.converge.operator.CommonPool;
import dev.converge.operator.Operator;
import dev.converge.strategy.StrategySelection;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.CountDownLatch;

/** Runs the ${kind} operator with the kubeconfig (or the in-cluster ServiceAccount) it finds. */
public final class ${kind}Operator {

  public static final String NAME = "${artifactId}";

  /**
   * How each kind is written: Deployments by server-side apply, anything else by JSON merge patch.
   * The status goes through the status subresource either way.
   */
  public static final String STRATEGIES = "default=merge-patch, apps/v1/Deployment=ssa";

  private ${kind}Operator() {}

  /** The operator, not started; the same wiring in production and in the integration test. */
  public static Operator create(KubernetesClient client, MeterRegistry meters, String... namespaces) {
    return Operator.builder(client)
        .name(NAME)
        .namespaces(java.util.List.of(namespaces))
        .strategies(StrategySelection.parse(STRATEGIES))
        .meterRegistry(meters)
        .controller(${kind}Controller.definition(${kind}Controller::cleanUpExternal))
        .build();
  }

  public static void main(String[] args) throws InterruptedException {
    CommonPool.ensureAsyncPool(); // before the client: see Converge's core README
    KubernetesClient client =
        Clients.create(new ConfigBuilder().withUserAgent(NAME + "/1").build());
    Operator operator = create(client, new SimpleMeterRegistry(), args);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      operator.stop();
      client.close();
      stopped.countDown();
    }));
    operator.start();
    stopped.await();
  }
}
