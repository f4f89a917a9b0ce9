package dev.converge.example.cli;

import com.google.inject.Guice;
import dev.converge.example.AppOperatorModule;
import dev.converge.example.OperatorSettings;
import dev.converge.example.webhook.AppWebhooks;
import dev.converge.operator.LeaderElection;
import dev.converge.operator.Operator;
import dev.converge.strategy.ApiKind;
import dev.converge.strategy.StrategyConfigurationException;
import dev.converge.strategy.StrategyRule;
import dev.converge.strategy.StrategySelection;
import dev.converge.webhooks.WebhookServer;
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

  @Option(names = "--access-review-interval", paramLabel = "SECONDS", defaultValue = "300",
      description = "How often the operator asks the API server whether its RBAC still allows all"
          + " it needs (readiness says what is missing); 0: only at start and after a refusal."
          + " Default: ${DEFAULT-VALUE}.")
  long accessReviewSeconds;

  @Option(names = "--http-port", paramLabel = "PORT", defaultValue = "8081",
      description = "Port of /healthz, /readyz and /metrics (0: any free port). Default: ${DEFAULT-VALUE}.")
  int httpPort;

  @Option(names = "--webhook-cert-dir", paramLabel = "DIR",
      description = "Serve the admission and conversion webhooks with tls.crt and tls.key from DIR"
          + " (a mounted Secret; re-read when it changes). Default: no webhooks.")
  Path webhookCertDir;

  @Option(names = "--webhook-port", paramLabel = "PORT", defaultValue = "9443",
      description = "HTTPS port of the webhooks. Default: ${DEFAULT-VALUE}.")
  int webhookPort;

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
      // Before the probe server: both are the JDK's HTTP server, whose settings are read once.
      Optional<WebhookServer> webhooks = Optional.ofNullable(webhookCertDir)
          .map(dir -> AppWebhooks.serve(client, dir, webhookPort, registry));
      ProbeServer probes;
      try {
        probes = ProbeServer.start(httpPort, operator, registry);
      } catch (IOException | RuntimeException e) {
        webhooks.ifPresent(WebhookServer::close);
        throw e;
      }
      System.out.printf("app-operator: API server %s, namespace %s, strategies %s, leader election"
              + " %s, probes and metrics on :%d%n",
          config.getMasterUrl(), settings.namespaces().isEmpty() ? "(all)" : String.join(",", settings.namespaces()), describe(settings.strategies()),
          settings.leaderElection().map(l -> "on Lease " + l.leaseNamespace() + "/" + l.leaseName())
              .orElse("off"),
          probes.port());
      try {
        operator.start(); // a strategy key naming no served kind fails here
      } catch (RuntimeException e) {
        probes.close();
        webhooks.ifPresent(WebhookServer::close);
        throw e;
      }
      return new Started(client, operator, probes, webhooks);
    } catch (RuntimeException | IOException e) {
      client.close();
      throw e;
    }
  }

  /** A started operator with its client and HTTP server. */
  record Started(KubernetesClient client, Operator operator, ProbeServer probes,
      Optional<WebhookServer> webhooks) implements AutoCloseable {
    @Override
    public void close() {
      webhooks.ifPresent(WebhookServer::close);
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
    if (accessReviewSeconds < 0) {
      throw new IllegalArgumentException("--access-review-interval must not be negative, got "
          + accessReviewSeconds);
    }
    OperatorSettings settings = new OperatorSettings(java.util.Set.copyOf(namespaces), selection,
        Optional.empty(), Clock.systemUTC(), java.time.Duration.ofSeconds(accessReviewSeconds));
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
