package dev.converge.strategy.bench;

import com.sun.management.ThreadMXBean;
import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.DirectStrategyContext;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategyContext;
import dev.converge.strategy.patch.MergePatchStrategy;
import dev.converge.strategy.ssa.ServerSideApplyStrategy;
import dev.converge.strategy.update.UpdateStrategy;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.conformance.WriteCounter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a steady-state reconcile pays for "is there anything to write?" with each strategy: the CPU
 * time and heap allocation of one no-op apply of a Deployment, compared against the live object
 * exactly as the API server returned it (server defaults and managedFields included) and read
 * through a copying cache, as the runtime does. Prints figures; asserts nothing but that the
 * measured applies sent no request.
 *
 * <pre>
 * mvn -q -pl strategies-ssa -am install -DskipTests
 * mvn -q -pl strategies-ssa dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.cp
 * java -cp strategies-ssa/target/test-classes:strategies-ssa/target/classes:$(cat strategies-ssa/target/bench.cp) \
 *   dev.converge.strategy.bench.NoOpApplyBenchmark [iterations]
 * </pre>
 */
public final class NoOpApplyBenchmark {

  private NoOpApplyBenchmark() {}

  public static void main(String[] args) {
    int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    KubernetesSerialization json = new KubernetesSerialization();
    try (LocalCluster cluster = LocalCluster.start()) {
      WriteCounter requests = new WriteCounter();
      try (KubernetesClient client =
          cluster
              .clientBuilder()
              .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("count", requests))
              .build()) {
        client
            .namespaces()
            .resource(
                new NamespaceBuilder().withNewMetadata().withName("bench").endMetadata().build())
            .create();
        System.out.printf(
            "no-op apply of a Deployment, %d iterations after %d warm-up, one thread%n",
            iterations, iterations);
        System.out.printf("%-12s %12s %16s%n", "strategy", "us/apply", "bytes/apply");
        for (ResourceStrategy strategy :
            List.of(
                new UpdateStrategy(), new MergePatchStrategy(), new ServerSideApplyStrategy())) {
          Deployment desired = desired("web-" + strategy.name());
          strategy.apply(desired, new DirectStrategyContext(client, "bench"));
          Deployment live =
              client
                  .apps()
                  .deployments()
                  .inNamespace("bench")
                  .withName(desired.getMetadata().getName())
                  .get();
          StrategyContext cached = new CopyingContext(client, live, json);

          run(strategy, desired, cached, iterations); // warm-up
          requests.reset();
          long cpu = threads.getCurrentThreadCpuTime();
          long bytes = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
          run(strategy, desired, cached, iterations);
          long cpuPer = (threads.getCurrentThreadCpuTime() - cpu) / iterations;
          long bytesPer =
              (threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - bytes)
                  / iterations;
          if (!requests.writes().isEmpty()) {
            throw new IllegalStateException(
                strategy.name() + " wrote during no-op applies: " + requests.writes());
          }
          System.out.printf("%-12s %12.1f %16d%n", strategy.name(), cpuPer / 1000.0, bytesPer);
        }
      }
    }
  }

  private static void run(
      ResourceStrategy strategy, Deployment desired, StrategyContext context, int n) {
    for (int i = 0; i < n; i++) {
      if (strategy.apply(desired, context).outcome() != ApplyOutcome.UNCHANGED) {
        throw new IllegalStateException(strategy.name() + " did not see the object as unchanged");
      }
    }
  }

  private static Deployment desired(String name) {
    Map<String, String> labels = Map.of("app", name);
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("bench")
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .withReplicas(2)
        .withNewSelector()
        .withMatchLabels(labels)
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(labels)
        .addToAnnotations("example.com/config-hash", "0123456789abcdef")
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("app")
        .withImage("nginx:1.27")
        .addNewPort()
        .withContainerPort(8080)
        .endPort()
        .addNewEnv()
        .withName("MODE")
        .withValue("bench")
        .endEnv()
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  /** Hands out a copy of one live object per read, as an informer-backed cache does. */
  private record CopyingContext(
      KubernetesClient client, Deployment live, KubernetesSerialization json)
      implements StrategyContext {
    @Override
    public String fieldManager() {
      return "bench";
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R extends HasMetadata> Optional<R> cached(
        Class<R> type, String namespace, String name) {
      return Optional.of((R) json.clone(live));
    }
  }
}
