package dev.converge.example.cli;

import com.google.inject.Guice;
import dev.converge.example.AppOperatorModule;
import dev.converge.example.OperatorSettings;
import dev.converge.operator.LeaderElection;
import dev.converge.operator.Operator;
import dev.converge.strategy.ApiKind;
import dev.converge.strategy.StrategyConfigurationException;
import dev.converge.strategy.StrategyRule;
import dev.converge.strategy.StrategySelection;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The AppDeployment operator's command line: {@code java -jar ... --help}. */
@Command(
    name = "app-operator",
    mixinStandardHelpOptions = true,
    version = "app-operator 0.1.0",
    description = "Runs the AppDeployment operator (apps.converge.dev/v1) until interrupted.",
    sortOptions = false)
public final class AppOperatorCommand implements Callable<Integer> {

  @Option(names = "--kubeconfig", paramLabel = "FILE",
      description = "Kubeconfig to use; default: $KUBECONFIG, ~/.kube/config, or the in-cluster"
          + " service account.")
  Path kubeconfig;

  @Option(names = "--context", paramLabel = "NAME", description = "Kubeconfig context; default: current.")
  String context;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NS", split = ",",
      description = "Namespace to watch (repeatable, or comma-separated); default: all namespaces.")
  List<String> namespaces = new ArrayList<>();

  @Option(names = "--strategy", paramLabel = "KIND=STRATEGY",
      description = "Strategy for a kind, repeatable, e.g. --strategy apps/v1/Deployment=ssa"
          + " --strategy v1/Service=update; 'default=NAME' sets the rest. Built in: update,"
          + " merge-patch, ssa. Default: apps/v1/Deployment=ssa, v1/Service=update.")
  List<String> strategies = new ArrayList<>();

  @Option(names = "--config", paramLabel = "FILE",
      description = "Properties file with converge.strategy.default and"
          + " converge.strategy.kind.<apiVersion>/<Kind> keys; --strategy flags override it.")
  Path configFile;

  @Option(names = "--leader-elect", negatable = true, defaultValue = "false", fallbackValue = "true",
      description = "Reconcile only while holding a Lease (for several replicas). Default: off.")
  boolean leaderElect;

  @Option(names = "--leader-election-namespace", paramLabel = "NS",
      description = "Namespace of the Lease; default: the pod's namespace, else 'default'.")
  String leaseNamespace;

  @Option(names = "--workers", paramLabel = "N", defaultValue = "" + OperatorSettings.DEFAULT_WORKERS,
      description = "AppDeployments reconciled at once. Default: ${DEFAULT-VALUE}.")
  int workers;

  @Option(names = "--http-port", paramLabel = "PORT", defaultValue = "8081",
      description = "Port of /healthz, /readyz and /metrics (0: any free port). Default: ${DEFAULT-VALUE}.")
  int httpPort;

  public static void main(String[] args) {
    System.exit(new CommandLine(new AppOperatorCommand()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Started started;
    try {
      started = start();
    } catch (StrategyConfigurationException | IllegalArgumentException e) {
      System.err.println("app-operator: " + e.getMessage());
      return 2;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      started.close();
      stopped.countDown();
    }, "app-operator-shutdown"));
    stopped.await();
    return 0;
  }

  /**
   * Builds everything the flags describe and starts it: the client, the operator (through Guice),
   * and the probe and metrics server. Returns at once; closing the result stops it all.
   *
   * @throws StrategyConfigurationException when a strategy is unknown or the selection is malformed
   * @throws IOException when the config file cannot be read or the HTTP port cannot be bound
   */
  Started start() throws IOException {
    OperatorSettings settings = settings();
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    Config config = kubeconfig != null
        ? Config.fromKubeconfig(context, kubeconfig.toFile())
        : Config.autoConfigure(context);
    ClientKeyAlgorithm.detect(config);
    OperatorSettings.identify(config);
    KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
    try {
      Operator operator;
      try {
        operator = Guice.createInjector(new AppOperatorModule(client, settings, registry))
            .getInstance(Operator.class);
      } catch (com.google.inject.CreationException e) {
        // Guice wraps configuration errors; show the one that says what to fix.
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        if (cause instanceof StrategyConfigurationException strategyError) {
          throw strategyError;
        }
        throw e;
      }
      ProbeServer probes = ProbeServer.start(httpPort, operator, registry);
      System.out.printf("app-operator: API server %s, namespace %s, strategies %s, leader election"
              + " %s, probes and metrics on :%d%n",
          config.getMasterUrl(), settings.namespaces().isEmpty() ? "(all)" : String.join(",", settings.namespaces()), describe(settings.strategies()),
          settings.leaderElection().map(l -> "on Lease " + l.leaseNamespace() + "/" + l.leaseName())
              .orElse("off"),
          probes.port());
      operator.start();
      return new Started(client, operator, probes);
    } catch (RuntimeException | IOException e) {
      client.close();
      throw e;
    }
  }

  /** A started operator with its client and HTTP server. */
  record Started(KubernetesClient client, Operator operator, ProbeServer probes)
      implements AutoCloseable {
    @Override
    public void close() {
      probes.close();
      operator.stop();
      client.close();
    }
  }

  OperatorSettings settings() throws IOException {
    StrategySelection selection = OperatorSettings.DEFAULT_STRATEGIES;
    if (configFile != null) {
      Properties properties = new Properties();
      try (Reader reader = Files.newBufferedReader(configFile)) {
        properties.load(reader);
      }
      StrategySelection fromFile = StrategySelection.fromProperties(properties);
      selection = merge(selection, fromFile,
          properties.containsKey(StrategySelection.DEFAULT_KEY));
    }
    if (!strategies.isEmpty()) {
      String joined = String.join(",", strategies);
      selection = merge(selection, StrategySelection.parse(joined),
          strategies.stream().anyMatch(s -> s.trim().startsWith("default=")));
    }
    if (workers < 1) {
      throw new IllegalArgumentException("--workers must be at least 1, was " + workers);
    }
    OperatorSettings settings = new OperatorSettings(java.util.Set.copyOf(namespaces), selection,
        Optional.empty(), Clock.systemUTC(), workers);
    if (leaderElect) {
      settings = settings.withLeaderElection(
          LeaderElection.onLease(leaseNamespace(), OperatorSettings.OPERATOR_NAME));
    }
    return settings;
  }

  /** {@code base} with the overrides of {@code overrides}; its default only when it set one. */
  static StrategySelection merge(StrategySelection base, StrategySelection overrides,
      boolean overridesDefault) {
    StrategySelection merged = overridesDefault
        ? new StrategySelection(overrides.defaultStrategy(), base.perKind(), base.rules())
        : base;
    for (Map.Entry<ApiKind, String> entry : overrides.perKind().entrySet()) {
      merged = merged.with(entry.getKey(), entry.getValue());
    }
    for (StrategyRule rule : overrides.rules()) {
      merged = merged.with(rule);
    }
    return merged;
  }

  private String leaseNamespace() throws IOException {
    if (leaseNamespace != null) {
      return leaseNamespace;
    }
    String fromEnv = System.getenv("POD_NAMESPACE");
    if (fromEnv != null && !fromEnv.isBlank()) {
      return fromEnv;
    }
    Path serviceAccount = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");
    if (Files.isReadable(serviceAccount)) {
      return Files.readString(serviceAccount).trim();
    }
    return "default";
  }

  private static String describe(StrategySelection selection) {
    StringBuilder text = new StringBuilder();
    selection.perKind().entrySet().stream()
        .sorted(Map.Entry.comparingByKey(java.util.Comparator.comparing(ApiKind::toString)))
        .forEach(e -> text.append(e.getKey()).append('=').append(e.getValue()).append(' '));
    return text.append("default=").append(selection.defaultStrategy()).toString();
  }
}
