package dev.converge.operator;

import dev.converge.schema.ApiKind;
import dev.converge.strategy.StrategyConfigurationException;
import dev.converge.strategy.StrategyRule;
import dev.converge.strategy.StrategySelection;
import io.fabric8.kubernetes.client.Config;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The command-line options every operator has, as a picocli mixin that fills an {@link
 * OperatorBuilder}: where to connect, which namespaces to watch, which strategy writes each kind,
 * leader election, workers and the port of the probes and metrics. Each option can also come from
 * the environment: {@code --leader-elect} from {@code CONVERGE_LEADER_ELECT}, {@code --namespace}
 * from {@code CONVERGE_NAMESPACE} and so on (upper case, dashes as underscores); a flag wins.
 * (picocli is an optional dependency of core: add {@code info.picocli:picocli} to use this class.)
 *
 * <pre>{@code
 * @Command(name = "app-operator", mixinStandardHelpOptions = true)
 * class AppOperator implements Callable<Integer> {
 *   @Mixin OperatorOptions options = new OperatorOptions();
 *
 *   public static void main(String[] args) {
 *     int exitCode = OperatorOptions.execute(new AppOperator(), args);
 *     // your main exits the JVM with exitCode; the library never does
 *   }
 *
 *   public Integer call() {
 *     OperatorBuilder builder = Operator.builder().name("app-operator").controller(...);
 *     return options.applyTo(builder).build().run();
 *   }
 * }
 * }</pre>
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
 *   <tr><td>{@code --sharded}</td><td>the replicas share the primaries, each reconciling and
 *       caching about 1/N of them (see {@link OperatorBuilder#sharded()}); implies {@code
 *       --leader-elect}. Default off</td></tr>
 *   <tr><td>{@code --access-review-interval SECONDS}</td><td>see {@link
 *       OperatorBuilder#accessReviewInterval}; default 300</td></tr>
 *   <tr><td>{@code --workers N}</td><td>objects each controller reconciles at once; default the
 *       operator's</td></tr>
 *   <tr><td>{@code --dry-run}, {@code --dry-run-output text|json}</td><td>one pass with every
 *       write a server-side dry run, its report printed, then exit (see {@link
 *       OperatorBuilder#dryRun}); default off, text</td></tr>
 *   <tr><td>{@code --http-port PORT}</td><td>of {@code /healthz}, {@code /readyz} and {@code /metrics}; default
 *       8081, 0 for any free port</td></tr>
 * </table>
 */
public final class OperatorOptions {

  /** Options at their defaults, for picocli to fill. */
  public OperatorOptions() {}

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
      names = "--sharded",
      negatable = true,
      defaultValue = "false",
      fallbackValue = "true",
      description =
          "Share the primary objects among the replicas, each reconciling about 1/N of them;"
              + " implies --leader-elect (the leader assigns them). Default: off.")
  boolean sharded;

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
      names = "--dry-run",
      negatable = true,
      defaultValue = "false",
      fallbackValue = "true",
      description =
          "Reconcile every object once with each write sent as a server-side dry run, print what"
              + " would change and exit; no write, Event or Lease is persisted. Default: off.")
  boolean dryRun;

  @Option(
      names = "--dry-run-output",
      paramLabel = "FORMAT",
      defaultValue = "text",
      description = "How --dry-run prints its report: text or json. Default: ${DEFAULT-VALUE}.")
  String dryRunOutput = "text";

  @Option(
      names = "--http-port",
      paramLabel = "PORT",
      defaultValue = "8081",
      description =
          "Port of /healthz, /readyz and /metrics (0: any free port). Default: ${DEFAULT-VALUE}.")
  int httpPort = 8081;

  /**
   * Runs a picocli {@code command} that mixes these options in, with {@code args}: the options not
   * given fall back to the environment ({@code CONVERGE_<OPTION>}), and a configuration error (a
   * bad flag value, a strategy no jar provides, a port in use) is one line on standard error and
   * exit code {@value Operator#CONFIGURATION_ERROR}, not a stack trace.
   *
   * @param command the picocli command, whose class has an {@code @Mixin} of these options
   * @param args the process's arguments
   * @return the exit code, for the caller's {@code main} to exit with
   */
  public static int execute(Object command, String... args) {
    return execute(new CommandLine(command), args);
  }

  /** As {@link #execute(Object, String...)}, on a command line of the caller's making. */
  static int execute(CommandLine commandLine, String... args) {
    commandLine.setDefaultValueProvider(OperatorOptions::fromEnvironment);
    String name = commandLine.getCommandName();
    commandLine.setExecutionExceptionHandler(
        (e, line, parsed) -> {
          if (e instanceof StrategyConfigurationException
              || e instanceof IllegalArgumentException) {
            PrintWriter err = line.getErr();
            err.println(name + ": " + e.getMessage());
            err.flush();
            return Operator.CONFIGURATION_ERROR;
          }
          throw e;
        });
    return commandLine.execute(args);
  }

  /**
   * The environment variable of an option, {@code CONVERGE_LEADER_ELECT} for {@code
   * --leader-elect}.
   */
  static String environmentVariable(OptionSpec option) {
    return "CONVERGE_"
        + option.longestName().replaceFirst("^-+", "").replace('-', '_').toUpperCase(Locale.ROOT);
  }

  private static String fromEnvironment(ArgSpec arg) {
    if (!(arg instanceof OptionSpec option)
        || !(option.userObject() instanceof java.lang.reflect.Field field)
        || field.getDeclaringClass() != OperatorOptions.class) {
      return null;
    }
    String value = System.getenv(environmentVariable(option));
    return value == null || value.isBlank() ? option.defaultValue() : value;
  }

  /**
   * Sets on {@code builder} what the options say: the client's kubeconfig and context, the
   * namespaces, the strategies (the builder's selection, then the config file's entries, then the
   * {@code --strategy} flags), leader election on a Lease named after the operator (and this
   * replica's identity at the end of the user agent), the access review interval, the workers and
   * the HTTP port, and a dry run. What no option sets stays as the builder has it.
   *
   * @param builder the builder to configure
   * @return {@code builder}
   * @throws IllegalArgumentException when a value is out of range, naming the option
   * @throws dev.converge.strategy.StrategyConfigurationException when a strategy entry is malformed
   * @throws java.io.UncheckedIOException when the config file cannot be read
   */
  public OperatorBuilder applyTo(OperatorBuilder builder) {
    if (accessReviewSeconds != null && accessReviewSeconds < 0) {
      throw new IllegalArgumentException(
          "--access-review-interval must not be negative, got " + accessReviewSeconds);
    }
    if (workers != null && workers < 1) {
      throw new IllegalArgumentException("--workers must be at least 1, was " + workers);
    }
    DryRunReport.Format output = dryRunOutput();
    try {
      if (kubeconfig != null || context != null) {
        builder.clientConfig(
            kubeconfig != null
                ? Config.fromKubeconfig(context, kubeconfig.toFile())
                : Config.autoConfigure(context));
      }
      builder.strategies(strategies(builder.strategySelection()));
      if (!namespaces.isEmpty()) {
        builder.namespaces(namespaces());
      }
      if (leaderElect || sharded) {
        leaderElect = true;
        builder.leaderElection(leaderElection(builder.name).orElseThrow());
      }
      if (sharded) {
        builder.sharded();
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(
          "reading " + (configFile != null ? configFile : "the pod's namespace") + ": " + e, e);
    }
    if (accessReviewSeconds != null) {
      builder.accessReviewInterval(Duration.ofSeconds(accessReviewSeconds));
    }
    if (workers != null) {
      builder.workers(workers);
    }
    if (dryRun) {
      builder.dryRun(true).dryRunOutput(output);
    }
    return builder.httpPort(httpPort);
  }

  /** The format {@code --dry-run-output} names. */
  private DryRunReport.Format dryRunOutput() {
    String format = dryRunOutput == null ? "text" : dryRunOutput.trim().toLowerCase(Locale.ROOT);
    return switch (format) {
      case "text" -> DryRunReport.Format.TEXT;
      case "json" -> DryRunReport.Format.JSON;
      default ->
          throw new IllegalArgumentException(
              "--dry-run-output must be text or json, was \"" + dryRunOutput + "\"");
    };
  }

  /**
   * This replica's identity in the Lease: {@code --leader-election-id}, else the host name and a
   * random suffix, chosen once.
   */
  synchronized String identity() {
    if (identity == null) {
      identity =
          leaderElectionId != null && !leaderElectionId.isBlank()
              ? leaderElectionId
              : LeaderElection.onLease("default", "identity").identity();
    }
    return identity;
  }

  /** The namespaces to watch; empty for all. */
  Set<String> namespaces() {
    return Set.copyOf(namespaces);
  }

  /**
   * {@code defaults}, overridden by the config file and then by the {@code --strategy} flags; the
   * default strategy changes only where one of them sets a new one.
   *
   * @throws dev.converge.strategy.StrategyConfigurationException when an entry is malformed
   * @throws IOException when the config file cannot be read
   */
  StrategySelection strategies(StrategySelection defaults) throws IOException {
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
  Optional<LeaderElection> leaderElection(String leaseName) throws IOException {
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

  /** {@code base} with the entries of {@code overrides}; its default only when it set one. */
  static StrategySelection merge(
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

  private String leaseNamespace() {
    return leaseNamespace != null ? leaseNamespace : ownNamespace().orElse("default");
  }

  /**
   * The namespace this process runs in, as a pod: {@code $POD_NAMESPACE} (set it from the downward
   * API, {@code fieldRef: metadata.namespace}), else the namespace of the pod's service account
   * token. Where an operator keeps objects of its own (a Lease, a ConfigMap of records).
   *
   * @return the namespace; empty outside a pod when {@code $POD_NAMESPACE} is not set
   * @throws java.io.UncheckedIOException when the service account's namespace file exists but
   *     cannot be read
   */
  public static Optional<String> ownNamespace() {
    String fromEnv = System.getenv("POD_NAMESPACE");
    if (fromEnv != null && !fromEnv.isBlank()) {
      return Optional.of(fromEnv.trim());
    }
    if (Files.isReadable(SERVICE_ACCOUNT_NAMESPACE)) {
      try {
        return Optional.of(Files.readString(SERVICE_ACCOUNT_NAMESPACE).trim());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(
            "could not read the pod's namespace from " + SERVICE_ACCOUNT_NAMESPACE, e);
      }
    }
    return Optional.empty();
  }
}
