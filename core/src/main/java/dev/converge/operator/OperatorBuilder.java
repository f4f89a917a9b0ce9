package dev.converge.operator;

import dev.converge.builder.ControllerDefinition;
import dev.converge.client.Clients;
import dev.converge.client.internal.ClientKeyAlgorithm;
import dev.converge.event.EventRecorder;
import dev.converge.metrics.ControllerMetrics;
import dev.converge.metrics.MicrometerControllerMetrics;
import dev.converge.queue.RateLimit;
import dev.converge.queue.internal.Ticker;
import dev.converge.status.StatusWriter;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Configures an {@link Operator}: the one place an operator's settings live. Only a controller is
 * required; every other setting has a default suited to production. {@link OperatorOptions} fills a
 * builder from command-line flags or environment variables, and the Guice module of {@code
 * converge-guice} from an injector; both only call the setters below.
 *
 * <pre>{@code
 * Operator.builder()
 *     .name("app-operator")
 *     .controller(appDeployments)
 *     .strategies("default=ssa, v1/Service=update")
 *     .httpPort(8081)
 *     .build()
 *     .run();
 * }</pre>
 */
public final class OperatorBuilder {

  /** Default time graceful shutdown waits for running reconciles. */
  public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

  /** Default time the caches have to sync before health reports the operator not live. */
  public static final Duration DEFAULT_CACHE_SYNC_TIMEOUT = Duration.ofMinutes(2);

  /** Default interval of the operator's reviews of its own RBAC access. */
  public static final Duration DEFAULT_ACCESS_REVIEW_INTERVAL = Duration.ofMinutes(5);

  /**
   * Default time one reconcile may run before it is reported as hung: 5 minutes. A reconcile that
   * only reads caches and writes a few objects takes milliseconds to a second or two. One fabric8
   * call with the client's defaults gives up after at most about 2 minutes even against a server
   * that accepts connections and never answers (a 10 s request timeout, and up to 10 retries with
   * backoff doubling from 100 ms to 3.2 s: 11 attempts and about 19 s of pauses). So a reconcile
   * still running after 5 minutes waits on something no fabric8 timeout bounds (an external call
   * without a timeout, a lock, a latch, a loop), or on a client configured without timeouts: stuck,
   * not slow. Controllers that wait longer on purpose set their own with {@code
   * ControllerBuilder.reconcileDeadline}.
   */
  public static final Duration DEFAULT_RECONCILE_DEADLINE = Duration.ofMinutes(5);

  /** Default operator name (event component and field manager). */
  public static final String DEFAULT_NAME = "converge-operator";

  private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");

  KubernetesClient client;
  boolean ownsClient;
  Config clientConfig;
  String userAgent;
  int workers = 1;
  int httpPort = -1;
  MeterRegistry registry;
  final List<NamedComponent> components = new ArrayList<>();
  final List<ControllerDefinition<?>> controllers = new ArrayList<>();
  final Set<Class<? extends HasMetadata>> extraCaches = new LinkedHashSet<>();
  String name = DEFAULT_NAME;
  Set<String> namespaces = new java.util.TreeSet<>();
  Duration informerResync = Duration.ZERO;
  Optional<LeaderElection> leaderElection = Optional.empty();
  Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;
  ControllerMetrics metrics = ControllerMetrics.none();
  Optional<StrategySelector> strategies = Optional.empty();
  StrategySelection selection = StrategySelection.defaults();
  boolean selectionSet;
  Optional<List<ResourceStrategy>> installed = Optional.empty();
  final List<ResourceStrategy> extraStrategies = new ArrayList<>();
  EventRecorder events;
  StatusWriter status;
  String fieldManager;
  Ticker ticker = Ticker.system();
  Runnable onLeadershipLost = () -> {};
  LeadershipLoss leadershipLoss = LeadershipLoss.STOP;
  RateLimit rateLimit = RateLimit.DEFAULT;
  Duration cacheSyncTimeout = DEFAULT_CACHE_SYNC_TIMEOUT;
  Duration accessReviewInterval = DEFAULT_ACCESS_REVIEW_INTERVAL;
  Duration reconcileDeadline = DEFAULT_RECONCILE_DEADLINE;
  boolean hungReconcileFailsLiveness;
  boolean dryRun;
  boolean sharded;
  DryRunReport.Format dryRunOutput = DryRunReport.Format.TEXT;

  OperatorBuilder(KubernetesClient client) {
    this.client = client;
  }

  /** A component and the name it is logged under. */
  record NamedComponent(String name, Component component) {}

  /**
   * Runs the operator on {@code kubernetesClient}, which stays the caller's: the operator does not
   * close it (tests, processes that share one client). Default: a client the operator makes from
   * {@link #clientConfig} and closes when it stops.
   *
   * @param kubernetesClient the client to read and write with
   * @return this builder
   */
  public OperatorBuilder client(KubernetesClient kubernetesClient) {
    this.client = Objects.requireNonNull(kubernetesClient, "kubernetesClient");
    return this;
  }

  /**
   * The connection of the client the operator makes, owns and closes when it stops; default: the
   * kubeconfig ({@code $KUBECONFIG}, {@code ~/.kube/config}) or the in-cluster service account. Not
   * used when the operator was built on a client of the caller's ({@link
   * Operator#builder(KubernetesClient)}).
   *
   * @param config the connection: server, credentials, timeouts
   * @return this builder
   */
  public OperatorBuilder clientConfig(Config config) {
    this.clientConfig = Objects.requireNonNull(config, "config");
    return this;
  }

  /**
   * The user agent of the client the operator makes; default the operator's name. The API server
   * records a PUT or POST, which carries no field manager, under the user agent's first word, so
   * begin it with the operator's name ({@code app-operator/1.4.0}). With leader election, the
   * replica's identity is appended in parentheses, so that the audit log tells replicas apart.
   *
   * @param agent the user agent, such as {@code app-operator/1.4.0}
   * @return this builder
   */
  public OperatorBuilder userAgent(String agent) {
    this.userAgent = Objects.requireNonNull(agent, "agent");
    return this;
  }

  /**
   * How many primaries each controller reconciles at once unless its definition sets its own
   * ({@code ControllerBuilder.maxConcurrentReconciles}); default 1. A reconcile mostly waits for
   * the API server, so an operator with many objects wants more than one.
   *
   * @param count the number of primaries reconciled at once per controller, at least 1
   * @return this builder
   * @throws IllegalArgumentException when {@code count} is less than 1
   */
  public OperatorBuilder workers(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("workers must be at least 1, was " + count);
    }
    this.workers = count;
    return this;
  }

  /**
   * Serves {@code /healthz}, {@code /readyz} and {@code /metrics} on {@code port} (0: any free
   * port; see {@link Operator#httpPort()}) from {@link Operator#start()} until it stops. {@code
   * /metrics} is the Prometheus text of the operator's meter registry: the one given to {@link
   * #meterRegistry}, or else one the operator makes with the JVM's memory and thread metrics.
   * Default: no HTTP server.
   *
   * @param port the port, 0 to 65535
   * @return this builder
   * @throws IllegalArgumentException when {@code port} is out of range
   */
  public OperatorBuilder httpPort(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("HTTP port must be 0 to 65535, was " + port);
    }
    this.httpPort = port;
    return this;
  }

  /**
   * Runs {@code component} beside the controllers (a webhook server, an endpoint of your own): it
   * is started by {@link Operator#start()} after the probes and before the caches, on every replica
   * whether it leads or not, and what it returns is closed when the operator stops, in reverse
   * order of starting.
   *
   * <pre>{@code
   * builder.component("webhooks", (client, metrics) -> webhookServer.start());
   * }</pre>
   *
   * @param componentName the name the component is logged under
   * @param component what starts it
   * @return this builder
   */
  public OperatorBuilder component(String componentName, Component component) {
    components.add(
        new NamedComponent(
            Objects.requireNonNull(componentName, "componentName"),
            Objects.requireNonNull(component, "component")));
    return this;
  }

  /**
   * The operator's name: the component of its Events and its field manager unless set apart;
   * default {@value #DEFAULT_NAME}.
   *
   * @param operatorName a lower-case DNS label, such as {@code app-operator}
   * @return this builder
   * @throws IllegalArgumentException when the name is not a lower-case DNS label
   */
  public OperatorBuilder name(String operatorName) {
    if (operatorName == null || !NAME.matcher(operatorName).matches()) {
      throw new IllegalArgumentException(
          "operator name \""
              + operatorName
              + "\" must be a lower-case DNS label such as \"app-operator\"");
    }
    this.name = operatorName;
    return this;
  }

  /**
   * Adds a controller to run, as {@link dev.converge.builder.ControllerBuilder} describes it. An
   * operator needs at least one.
   *
   * @param definition the controller
   * @return this builder
   * @throws IllegalArgumentException when another controller has the same name
   */
  public OperatorBuilder controller(ControllerDefinition<?> definition) {
    Objects.requireNonNull(definition, "definition");
    for (ControllerDefinition<?> existing : controllers) {
      if (existing.name().equals(definition.name())) {
        throw new IllegalArgumentException(
            "two controllers are named \""
                + definition.name()
                + "\"; give one another name with ControllerBuilder.named(...)");
      }
    }
    controllers.add(definition);
    return this;
  }

  /**
   * Adds each of {@code definitions}; see {@link #controller(ControllerDefinition)}.
   *
   * @param definitions the controllers, for an injector that collects them
   * @return this builder
   * @throws IllegalArgumentException when a controller's name is already taken
   */
  public OperatorBuilder controllers(Collection<? extends ControllerDefinition<?>> definitions) {
    definitions.forEach(this::controller);
    return this;
  }

  /**
   * Watches {@code ns} (for namespaced kinds); may be called several times to watch a set of
   * namespaces. Default: all namespaces. Cluster-scoped kinds are always watched whole.
   *
   * @param ns the namespace's name
   * @return this builder
   * @throws IllegalArgumentException when {@code ns} is null or blank
   */
  public OperatorBuilder namespace(String ns) {
    if (ns == null || ns.isBlank()) {
      throw new IllegalArgumentException("namespace must not be blank; omit it to watch all");
    }
    this.namespaces.add(ns);
    return this;
  }

  /**
   * Watches each of {@code names}; see {@link #namespace(String)}.
   *
   * @param names the namespaces' names
   * @return this builder
   * @throws IllegalArgumentException when a name is null or blank
   */
  public OperatorBuilder namespaces(Collection<String> names) {
    names.forEach(this::namespace);
    return this;
  }

  /**
   * How often informers replay their whole cache as updates (each passes through predicates, so
   * {@code resourceVersionChanged} filters them out). Default: never.
   *
   * @param resync the interval; zero for never
   * @return this builder
   * @throws IllegalArgumentException when {@code resync} is negative
   */
  public OperatorBuilder informerResync(Duration resync) {
    Objects.requireNonNull(resync, "resync");
    if (resync.isNegative()) {
      throw new IllegalArgumentException("informer resync must not be negative, got " + resync);
    }
    this.informerResync = resync;
    return this;
  }

  /**
   * Keeps an informer cache of {@code type} even if no controller watches it, so that reconcilers
   * read it from {@link dev.converge.reconcile.Context#caches()} instead of the API server.
   *
   * @param type the kind's class
   * @return this builder
   */
  public OperatorBuilder cache(Class<? extends HasMetadata> type) {
    extraCaches.add(Objects.requireNonNull(type, "type"));
    return this;
  }

  /**
   * Reconciles only while holding the given Lease, so that replicas of the operator never write at
   * once. Default: no leader election.
   *
   * @param election the Lease and its timings
   * @return this builder
   */
  public OperatorBuilder leaderElection(LeaderElection election) {
    this.leaderElection = Optional.of(Objects.requireNonNull(election, "election"));
    return this;
  }

  /**
   * Shares the primary objects among the replicas instead of letting one leader reconcile them all:
   * each replica reconciles and caches about 1/N of them. Needs {@link #leaderElection}, whose
   * Lease names the ring and whose identity and timings each replica's membership uses; the replica
   * leading that Lease runs the sharder, which assigns each primary to a member on a
   * consistent-hash ring and writes the assignment as the label {@code shard.converge.dev/<lease
   * name>}. Every replica reconciles the primaries labelled with its identity, and the children it
   * writes through {@code Context.apply} carry the label too, so that its informers of primaries
   * and of owned kinds select on it. An object moves between live replicas through a hand-over: the
   * sharder adds {@code drain.shard.converge.dev/<lease name>}, the replica finishes the object's
   * reconcile in flight and removes both labels, and only then is the object given to its new
   * member. A replica whose Lease expires loses its objects to the others at once; its writes were
   * fenced before. Default: off.
   *
   * <p>Kinds watched through a mapping function, and caches added with {@link #cache}, stay whole
   * on every replica. A kind may not be the primary of one controller and owned by another.
   *
   * @return this builder
   */
  public OperatorBuilder sharded() {
    return sharded(true);
  }

  /**
   * Whether the operator is sharded; see {@link #sharded()}.
   *
   * @param on whether the replicas share the primaries
   * @return this builder
   */
  public OperatorBuilder sharded(boolean on) {
    this.sharded = on;
    return this;
  }

  /**
   * How long graceful shutdown waits for running reconciles; default 30 s.
   *
   * @param timeout the longest wait; zero waits for nothing
   * @return this builder
   * @throws IllegalArgumentException when {@code timeout} is negative
   */
  public OperatorBuilder shutdownTimeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("shutdown timeout must not be negative, got " + timeout);
    }
    this.shutdownTimeout = timeout;
    return this;
  }

  /**
   * Records controller metrics in {@code meterRegistry}, which {@link #httpPort} serves on {@code
   * /metrics}. Default: a Prometheus registry of the operator's own when {@link #httpPort} is set,
   * else none.
   *
   * @param meterRegistry the registry
   * @return this builder
   */
  public OperatorBuilder meterRegistry(MeterRegistry meterRegistry) {
    this.registry = Objects.requireNonNull(meterRegistry, "meterRegistry");
    return metrics(new MicrometerControllerMetrics(meterRegistry));
  }

  /**
   * Where the runtime reports its controllers' metrics, for a recorder other than Micrometer's;
   * {@link #meterRegistry} sets one on a registry. Default: none recorded.
   *
   * @param controllerMetrics the recorder
   * @return this builder
   */
  public OperatorBuilder metrics(ControllerMetrics controllerMetrics) {
    this.metrics = Objects.requireNonNull(controllerMetrics, "metrics");
    return this;
  }

  /**
   * A selector of the caller's making, replacing every other strategy setting; for tests and for
   * injectors that build their own.
   *
   * @param selector the selector every write goes through
   * @return this builder
   */
  public OperatorBuilder strategies(StrategySelector selector) {
    this.strategies = Optional.of(Objects.requireNonNull(selector, "selector"));
    return this;
  }

  /**
   * Which strategy writes each kind, e.g. {@code StrategySelection.parse("apps/v1/Deployment=ssa,
   * v1/Service=update")}; default {@link StrategySelection#defaults()}. The strategies it names are
   * looked up when the operator is built among those found on the classpath ({@code
   * META-INF/services} entries of the strategy jars, no injector needed) or given to {@link
   * #installedStrategies}, and those added with {@link #strategy}; {@link #build()} fails naming
   * any it does not find.
   *
   * @param selection the strategy of each kind
   * @return this builder
   */
  public OperatorBuilder strategies(StrategySelection selection) {
    this.selection = Objects.requireNonNull(selection, "selection");
    this.selectionSet = true;
    return this;
  }

  /**
   * {@link #strategies(StrategySelection)} in the form of {@link StrategySelection#parse}, e.g.
   * {@code "default=ssa, v1/Service=update"}.
   *
   * @param selectionText the selection, as the {@code --strategy} flags and config files write it
   * @return this builder
   * @throws dev.converge.strategy.StrategyConfigurationException when the text is malformed
   */
  public OperatorBuilder strategies(String selectionText) {
    return strategies(StrategySelection.parse(selectionText));
  }

  /**
   * Adds a strategy of your own beside those found on the classpath, to be named in the selection
   * by its {@link ResourceStrategy#name()}.
   *
   * @param strategy the strategy
   * @return this builder
   */
  public OperatorBuilder strategy(ResourceStrategy strategy) {
    extraStrategies.add(Objects.requireNonNull(strategy, "strategy"));
    return this;
  }

  /**
   * The strategies to choose from instead of those found on the classpath (an injector's chosen
   * set); those added with {@link #strategy} still join them.
   *
   * @param strategies the strategies to choose from
   * @return this builder
   */
  public OperatorBuilder installedStrategies(Collection<? extends ResourceStrategy> strategies) {
    this.installed = Optional.of(List.copyOf(strategies));
    return this;
  }

  /** The strategy selection configured so far. */
  StrategySelection strategySelection() {
    return strategies.map(StrategySelector::selection).orElse(selection);
  }

  /**
   * The selector the operator writes with: the caller's, or the configured selection over the
   * installed strategies; empty when none is configured and none is found.
   */
  Optional<StrategySelector> selector() {
    if (strategies.isPresent()) {
      return strategies;
    }
    List<ResourceStrategy> all = new ArrayList<>();
    if (installed.isPresent()) {
      all.addAll(installed.get());
    } else {
      all.addAll(StrategySelector.findInstalled(OperatorBuilder.class.getClassLoader()).values());
    }
    all.addAll(extraStrategies);
    if (all.isEmpty() && !selectionSet()) {
      return Optional.empty();
    }
    return Optional.of(StrategySelector.of(all, selection));
  }

  /** Whether a selection was configured, rather than left at the defaults. */
  boolean selectionSet() {
    return selectionSet;
  }

  /**
   * The event recorder; default: one writing Events with the operator's name as component.
   *
   * @param recorder the recorder reconcilers and the runtime write Events with
   * @return this builder
   */
  public OperatorBuilder events(EventRecorder recorder) {
    this.events = Objects.requireNonNull(recorder, "recorder");
    return this;
  }

  /**
   * The status writer; default: merge patch on the status subresource, no optimistic lock.
   *
   * @param writer the writer reconcilers and the runtime write status with
   * @return this builder
   */
  public OperatorBuilder status(StatusWriter writer) {
    this.status = Objects.requireNonNull(writer, "writer");
    return this;
  }

  /**
   * The field manager for strategy writes; default: the operator's name.
   *
   * @param manager the name the API server records as owner of the fields written
   * @return this builder
   * @throws IllegalArgumentException when {@code manager} is null or blank
   */
  public OperatorBuilder fieldManager(String manager) {
    if (manager == null || manager.isBlank()) {
      throw new IllegalArgumentException("field manager must not be blank");
    }
    this.fieldManager = manager;
    return this;
  }

  /**
   * Called (on a separate thread) after the operator lost its lease and stopped reconciling. A
   * typical program exits here so that a fresh instance joins the election; the library itself
   * never exits the JVM.
   *
   * @param callback what runs after the loss
   * @return this builder
   */
  public OperatorBuilder onLeadershipLost(Runnable callback) {
    this.onLeadershipLost = Objects.requireNonNull(callback, "callback");
    return this;
  }

  /**
   * What to do after losing the leader Lease: {@link LeadershipLoss#STOP} (default; live turns
   * false and {@link #onLeadershipLost} runs) or {@link LeadershipLoss#REJOIN} (stand by and rejoin
   * the election).
   *
   * @param policy what the operator does after the loss
   * @return this builder
   */
  public OperatorBuilder afterLeadershipLoss(LeadershipLoss policy) {
    this.leadershipLoss = Objects.requireNonNull(policy, "policy");
    return this;
  }

  /**
   * The overall limit on retries of each controller's queue, on top of the per-key backoff; default
   * {@link RateLimit#DEFAULT} (10 per second, bursts of 100).
   *
   * @param limit the limit of each controller's queue
   * @return this builder
   */
  public OperatorBuilder rateLimit(RateLimit limit) {
    this.rateLimit = Objects.requireNonNull(limit, "limit");
    return this;
  }

  /**
   * How long informers have to deliver their initial lists (a missing CRD or a refused list keeps
   * them from it); after that, {@code health()} reports the operator not live, naming each kind and
   * its last error. Default 2 minutes; zero waits forever.
   *
   * @param timeout the time the caches have to sync
   * @return this builder
   * @throws IllegalArgumentException when {@code timeout} is negative
   */
  public OperatorBuilder cacheSyncTimeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("cache sync timeout must not be negative, got " + timeout);
    }
    this.cacheSyncTimeout = timeout;
    return this;
  }

  /**
   * How often the running operator asks the API server (SelfSubjectAccessReview) whether it still
   * has every permission its {@link Operator#permissions()} lists, so that RBAC removed under open
   * watches shows in {@code health()} before a write or a re-list is refused. It also reviews at
   * start, and every few seconds while something is denied or was refused, until it is allowed
   * again. Default 5 minutes; zero reviews only at start and after a refusal.
   *
   * @param interval the interval of the reviews
   * @return this builder
   * @throws IllegalArgumentException when {@code interval} is negative
   */
  public OperatorBuilder accessReviewInterval(Duration interval) {
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative()) {
      throw new IllegalArgumentException(
          "access review interval must not be negative, got " + interval);
    }
    this.accessReviewInterval = interval;
    return this;
  }

  /**
   * How long one reconcile may run before it is reported as hung, for each controller that sets no
   * deadline of its own ({@code ControllerBuilder.reconcileDeadline}); default {@link
   * #DEFAULT_RECONCILE_DEADLINE}, 5 minutes. A hung reconcile is reported once (a WARN line with
   * the object and its worker's stack, the metrics {@code converge.reconcile.hung} and {@code
   * converge.reconcile.deadline.exceeded}) and named in {@link Operator#health()} until it ends; it
   * is not stopped unless its controller says {@code interruptPastDeadline()}.
   *
   * @param deadline how long one reconcile may run; positive
   * @return this builder
   * @throws IllegalArgumentException when {@code deadline} is zero or negative
   */
  public OperatorBuilder reconcileDeadline(Duration deadline) {
    Objects.requireNonNull(deadline, "deadline");
    if (deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("reconcile deadline must be positive, got " + deadline);
    }
    this.reconcileDeadline = deadline;
    return this;
  }

  /**
   * Whether a reconcile running past its deadline makes {@link Operator#health()} not live, so that
   * the kubelet restarts the process; default false.
   *
   * <p>By default a hung reconcile is reported (the probes' text names the controller and the
   * object) but liveness and readiness stay as they are: the rest of the operator still works, the
   * hung call may yet return, and a restart abandons every other reconcile in flight. Yet a call
   * that never returns holds its worker for good, and with one worker per controller its whole kind
   * waits; the library does not kill threads, so a restart is often the only cure. Turn this on
   * when you prefer that restart to a stalled kind; the liveness probe's {@code failureThreshold}
   * and {@code periodSeconds} then add their grace on top of the deadline.
   *
   * @param fails whether a hung reconcile makes the operator not live
   * @return this builder
   */
  public OperatorBuilder hungReconcileFailsLiveness(boolean fails) {
    this.hungReconcileFailsLiveness = fails;
    return this;
  }

  /**
   * Makes the operator a dry run: it caches and reconciles as usual, but every write it sends
   * (creates, updates, patches and server-side applies, status, finalizers, deletes, and what a
   * reconciler sends through {@code context.client()}) is a server-side dry run ({@code
   * ?dryRun=All}): the API server validates, defaults and admits it, and persists nothing. It sends
   * no Event, takes no Lease even with {@link #leaderElection} (it writes nothing, so it can run
   * beside the operator that leads) and starts no {@link #component}. {@link Operator#dryRunPass()}
   * reconciles each primary once and reports what a real run would change, field by field; {@link
   * Operator#run()} prints that report and returns 0. Default: off.
   *
   * <p>Writes a reconciler sends with a client of its own, not the context's, are not dry runs.
   *
   * @param on whether the operator only previews its writes
   * @return this builder
   */
  public OperatorBuilder dryRun(boolean on) {
    this.dryRun = on;
    return this;
  }

  /**
   * How {@link Operator#run()} prints the report of a dry run on standard output: {@link
   * DryRunReport#text()} (default) or {@link DryRunReport#json()}.
   *
   * @param format text or JSON
   * @return this builder
   */
  public OperatorBuilder dryRunOutput(DryRunReport.Format format) {
    this.dryRunOutput = Objects.requireNonNull(format, "format");
    return this;
  }

  /**
   * Builds the operator, not started: the strategies are looked up and the settings checked here,
   * so a configuration error fails before anything runs. Building sends no request to the API
   * server. When the operator makes its own client, it makes it here and closes it if the build
   * fails.
   *
   * @return the operator, to {@link Operator#start()} or {@link Operator#run()}
   * @throws IllegalStateException when no controller was added
   * @throws dev.converge.strategy.StrategyConfigurationException when the selection names a
   *     strategy that is not installed, or a controller owns a kind and no strategy is found
   */
  public Operator build() {
    if (controllers.isEmpty()) {
      throw new IllegalStateException(
          "an operator needs at least one controller: call .controller(ControllerBuilder...build(...))");
    }
    if (sharded && leaderElection.isEmpty()) {
      throw new IllegalArgumentException(
          "operator "
              + name
              + ": sharded() needs leaderElection(...): its Lease names the shard ring and"
              + " elects the sharder (with OperatorOptions: --sharded implies --leader-elect)");
    }
    if (registry == null && httpPort >= 0) {
      PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      new JvmMemoryMetrics().bindTo(prometheus);
      new JvmThreadMetrics().bindTo(prometheus);
      meterRegistry(prometheus);
    }
    if (client == null) {
      Config config = clientConfig != null ? clientConfig : Config.autoConfigure(null);
      ClientKeyAlgorithm.detect(config);
      String agent = userAgent != null ? userAgent : name;
      config.setUserAgent(
          leaderElection.map(le -> agent + " (" + le.identity() + ")").orElse(agent));
      client = Clients.create(config);
      ownsClient = true;
    }
    try {
      return new Operator(this);
    } catch (RuntimeException e) {
      if (ownsClient) {
        client.close();
        client = null;
      }
      throw e;
    }
  }
}
