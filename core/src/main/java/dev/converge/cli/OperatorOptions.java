package dev.converge.cli;

import dev.converge.client.ClientKeyAlgorithm;
import dev.converge.client.Clients;
import dev.converge.operator.LeaderElection;
import dev.converge.operator.RunSettings;
import dev.converge.strategy.ApiKind;
import dev.converge.strategy.StrategyRule;
import dev.converge.strategy.StrategySelection;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * The command-line options every operator has, as a picocli mixin: where to connect, which
 * namespaces to watch, which strategy writes each kind, leader election and the port of the probes
 * and metrics. Add it to your command with {@code @Mixin OperatorOptions options;} (picocli is an
 * optional dependency of core: add {@code info.picocli:picocli} to use this class).
 *
 * <table>
 *   <caption>Options</caption>
 *   <tr><td>{@code --kubeconfig FILE}, {@code --context NAME}</td><td>default {@code $KUBECONFIG},
 *       {@code ~/.kube/config}, or the in-cluster service account</td></tr>
 *   <tr><td>{@code -n}, {@code --namespace NS}</td><td>repeatable or comma-separated; default all</td></tr>
 *   <tr><td>{@code --strategy KIND=NAME}</td><td>repeatable; {@code default=NAME} for the other kinds;
 *       the forms of {@link StrategySelection#parse}</td></tr>
 *   <tr><td>{@code --config FILE}</td><td>properties read by {@link StrategySelection#fromProperties};
 *       {@code --strategy} flags win</td></tr>
 *   <tr><td>{@code --leader-elect}, {@code --leader-election-namespace NS}</td><td>the Lease's
 *       namespace defaults to {@code $POD_NAMESPACE}, then the service account's namespace, then
 *       {@code default}</td></tr>
 *   <tr><td>{@code --leader-election-id ID}</td><td>this replica's identity in the Lease; default
 *       the host name and a random suffix. With leader election it also ends the user agent, so
 *       that the API server's audit log tells the replicas apart</td></tr>
 *   <tr><td>{@code --leader-election-lease-duration}, {@code --leader-election-renew-deadline},
 *       {@code --leader-election-retry-period SECONDS}</td><td>the election's timings; default 15,
 *       10 and 2 (see {@link LeaderElection})</td></tr>
 *   <tr><td>{@code --access-review-interval SECONDS}</td><td>see {@link
 *       dev.converge.operator.OperatorBuilder#accessReviewInterval}; default 300</td></tr>
 *   <tr><td>{@code --workers N}</td><td>objects each controller reconciles at once; default the
 *       operator's</td></tr>
 *   <tr><td>{@code --http-port PORT}</td><td>for {@link dev.converge.operator.ProbeServer}; default
 *       8081, 0 for any free port</td></tr>
 * </table>
 */
public final class OperatorOptions {

  private static final Path SERVICE_ACCOUNT_NAMESPACE =
      Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      description =
          "Kubeconfig to use; default: $KUBECONFIG, ~/.kube/config, or the in-cluster"
              + " service account.")
  Path kubeconfig;

  @Option(
      names = "--context",
      paramLabel = "NAME",
      description = "Kubeconfig context; default: current.")
  String context;

  @Option(
      names = {"-n", "--namespace"},
      paramLabel = "NS",
      split = ",",
      description = "Namespace to watch (repeatable, or comma-separated); default: all namespaces.")
  List<String> namespaces = new ArrayList<>();

  @Option(
      names = "--strategy",
      paramLabel = "KIND=STRATEGY",
      description =
          "Strategy for a kind, repeatable, e.g. --strategy apps/v1/Deployment=ssa"
              + " --strategy v1/Service=update; 'default=NAME' sets the rest. Built in: update,"
              + " merge-patch, ssa.")
  List<String> strategies = new ArrayList<>();

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "Properties file with converge.strategy.default and"
              + " converge.strategy.kind.<apiVersion>/<Kind> keys; --strategy flags override it.")
  Path configFile;

  @Option(
      names = "--leader-elect",
      negatable = true,
      defaultValue = "false",
      fallbackValue = "true",
      description = "Reconcile only while holding a Lease (for several replicas). Default: off.")
  boolean leaderElect;

  @Option(
      names = "--leader-election-namespace",
      paramLabel = "NS",
      description = "Namespace of the Lease; default: the pod's namespace, else 'default'.")
  String leaseNamespace;

  @Option(
      names = "--leader-election-id",
      paramLabel = "ID",
      description = "This replica's identity in the Lease. Default: host name and a random suffix.")
  String leaderElectionId;

  @Option(
      names = "--leader-election-lease-duration",
      paramLabel = "SECONDS",
      description = "How long the Lease is valid after its last renewal. Default: 15.")
  Double leaseDurationSeconds;

  @Option(
      names = "--leader-election-renew-deadline",
      paramLabel = "SECONDS",
      description =
          "How long the leader keeps trying to renew before it stops; it writes nothing once its"
              + " last renewal is older. Default: 10.")
  Double renewDeadlineSeconds;

  @Option(
      names = "--leader-election-retry-period",
      paramLabel = "SECONDS",
      description = "How often candidates try to acquire and the leader renews. Default: 2.")
  Double retryPeriodSeconds;

  private String identity;

  @Option(
      names = "--access-review-interval",
      paramLabel = "SECONDS",
      description =
          "How often the operator asks the API server whether its RBAC still allows all"
              + " it needs (readiness says what is missing); 0: only at start and after a refusal."
              + " Default: 300.")
  Long accessReviewSeconds;

  @Option(
      names = "--workers",
      paramLabel = "N",
      description = "Objects each controller reconciles at once. Default: the operator's own.")
  Integer workers;

  @Option(
      names = "--http-port",
      paramLabel = "PORT",
      defaultValue = "8081",
      description =
          "Port of /healthz, /readyz and /metrics (0: any free port). Default: ${DEFAULT-VALUE}.")
  int httpPort = 8081;

  /**
   * The client configuration: the kubeconfig (or in-cluster account) and context the options name,
   * with the client key's algorithm filled in ({@link ClientKeyAlgorithm}) and {@code userAgent}
   * set, so that the API server records this operator's PUT and POST requests under its own name.
   */
  public Config clientConfig(String userAgent) {
    Config config =
        kubeconfig != null
            ? Config.fromKubeconfig(context, kubeconfig.toFile())
            : Config.autoConfigure(context);
    ClientKeyAlgorithm.detect(config);
    config.setUserAgent(leaderElect ? userAgent + " (" + identity() + ")" : userAgent);
    return config;
  }

  /**
   * This replica's identity in the Lease: {@code --leader-election-id}, else the host name and a
   * random suffix, chosen once.
   */
  public synchronized String identity() {
    if (identity == null) {
      identity =
          leaderElectionId != null && !leaderElectionId.isBlank()
              ? leaderElectionId
              : LeaderElection.onLease("default", "identity").identity();
    }
    return identity;
  }

  /**
   * A client for {@link #clientConfig(String)}, with the JSON of {@link
   * dev.converge.client.Clients}.
   */
  public KubernetesClient client(String userAgent) {
    return Clients.create(clientConfig(userAgent));
  }

  /** The namespaces to watch; empty for all. */
  public Set<String> namespaces() {
    return Set.copyOf(namespaces);
  }

  /**
   * {@code defaults}, overridden by the config file and then by the {@code --strategy} flags; the
   * default strategy changes only where one of them sets a new one.
   *
   * @throws dev.converge.strategy.StrategyConfigurationException when an entry is malformed
   * @throws IOException when the config file cannot be read
   */
  public StrategySelection strategies(StrategySelection defaults) throws IOException {
    StrategySelection selection = defaults;
    if (configFile != null) {
      Properties properties = new Properties();
      try (Reader reader = Files.newBufferedReader(configFile)) {
        properties.load(reader);
      }
      selection =
          merge(
              selection,
              StrategySelection.fromProperties(properties),
              properties.containsKey(StrategySelection.DEFAULT_KEY));
    }
    if (!strategies.isEmpty()) {
      selection =
          merge(
              selection,
              StrategySelection.parse(String.join(",", strategies)),
              strategies.stream().anyMatch(s -> s.trim().startsWith("default=")));
    }
    return selection;
  }

  /**
   * The Lease {@code leaseName} when {@code --leader-elect} is on, in {@code
   * --leader-election-namespace}, else the pod's namespace ({@code $POD_NAMESPACE}, then the
   * service account's), else {@code default}.
   */
  public Optional<LeaderElection> leaderElection(String leaseName) throws IOException {
    if (!leaderElect) {
      return Optional.empty();
    }
    LeaderElection election =
        LeaderElection.onLease(leaseNamespace(), leaseName).withIdentity(identity());
    return Optional.of(
        election.withTimings(
            seconds(leaseDurationSeconds, election.leaseDuration(), "lease-duration"),
            seconds(renewDeadlineSeconds, election.renewDeadline(), "renew-deadline"),
            seconds(retryPeriodSeconds, election.retryPeriod(), "retry-period")));
  }

  private static Duration seconds(Double value, Duration otherwise, String option) {
    if (value == null) {
      return otherwise;
    }
    if (!(value > 0)) {
      throw new IllegalArgumentException(
          "--leader-election-" + option + " must be a positive number of seconds, was " + value);
    }
    return Duration.ofMillis(Math.round(value * 1000));
  }

  /**
   * {@code defaults} with what the options set: the namespaces ({@code -n}), the strategies ({@link
   * #strategies}), the Lease named after the operator ({@link #leaderElection}), the access review
   * interval and the workers. What no option sets stays as in {@code defaults}.
   *
   * @throws IllegalArgumentException when {@code --access-review-interval} is negative or {@code
   *     --workers} is less than 1, naming the option
   * @throws dev.converge.strategy.StrategyConfigurationException when a strategy entry is malformed
   * @throws IOException when the config file cannot be read
   */
  public RunSettings settings(RunSettings defaults) throws IOException {
    if (accessReviewSeconds != null && accessReviewSeconds < 0) {
      throw new IllegalArgumentException(
          "--access-review-interval must not be negative, got " + accessReviewSeconds);
    }
    if (workers != null && workers < 1) {
      throw new IllegalArgumentException("--workers must be at least 1, was " + workers);
    }
    RunSettings settings = defaults.withStrategies(strategies(defaults.strategies()));
    if (!namespaces.isEmpty()) {
      settings = settings.withNamespaces(namespaces());
    }
    if (leaderElect) {
      settings = settings.withLeaderElection(leaderElection(defaults.name()));
    }
    if (accessReviewSeconds != null) {
      settings = settings.withAccessReviewInterval(Duration.ofSeconds(accessReviewSeconds));
    }
    return workers == null ? settings : settings.withWorkers(workers);
  }

  /** The port of the probes and metrics; 0 for any free one. */
  public int httpPort() {
    return httpPort;
  }

  /** {@code base} with the entries of {@code overrides}; its default only when it set one. */
  public static StrategySelection merge(
      StrategySelection base, StrategySelection overrides, boolean overridesDefault) {
    StrategySelection merged =
        overridesDefault
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

  /**
   * One line for a start-up message: {@code apps/v1/Deployment=ssa v1/Service=update default=ssa}.
   */
  public static String describe(StrategySelection selection) {
    StringBuilder text = new StringBuilder();
    selection.perKind().entrySet().stream()
        .sorted(Map.Entry.comparingByKey(Comparator.comparing(ApiKind::toString)))
        .forEach(e -> text.append(e.getKey()).append('=').append(e.getValue()).append(' '));
    return text.append("default=").append(selection.defaultStrategy()).toString();
  }

  private String leaseNamespace() throws IOException {
    if (leaseNamespace != null) {
      return leaseNamespace;
    }
    String fromEnv = System.getenv("POD_NAMESPACE");
    if (fromEnv != null && !fromEnv.isBlank()) {
      return fromEnv;
    }
    if (Files.isReadable(SERVICE_ACCOUNT_NAMESPACE)) {
      return Files.readString(SERVICE_ACCOUNT_NAMESPACE).trim();
    }
    return "default";
  }
}
