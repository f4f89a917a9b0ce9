package dev.converge.operator;

import dev.converge.builder.ControllerDefinition;
import dev.converge.builder.WatchDefinition;
import dev.converge.event.EventRecorder;
import dev.converge.handler.internal.EnqueueControllerOwner;
import dev.converge.operator.internal.AccessChecks;
import dev.converge.operator.internal.CacheWarmUp;
import dev.converge.operator.internal.ControllerRuntime;
import dev.converge.operator.internal.DryRunClient;
import dev.converge.operator.internal.DryRunPass;
import dev.converge.operator.internal.DryRunRecorder;
import dev.converge.operator.internal.FencedClient;
import dev.converge.operator.internal.HungReconcileWatchdog;
import dev.converge.operator.internal.LeaseElection;
import dev.converge.operator.internal.LeaseFence;
import dev.converge.operator.internal.RejectedObjects;
import dev.converge.operator.internal.RequiredPermissions;
import dev.converge.operator.internal.RuntimeServices;
import dev.converge.operator.internal.ServedParts;
import dev.converge.operator.internal.ShardMembership;
import dev.converge.operator.internal.ShardShare;
import dev.converge.operator.internal.ShardedReplica;
import dev.converge.operator.internal.SharedInformers;
import dev.converge.operator.internal.StrategyKindCheck;
import dev.converge.rbac.OperatorPermissions;
import dev.converge.source.Caches;
import dev.converge.status.StatusWriter;
import dev.converge.strategy.StrategyConfigurationException;
import dev.converge.strategy.StrategySelector;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a set of controllers on one client: shared informers (one per kind), a work queue and
 * workers per controller, optional leader election, health and graceful shutdown.
 *
 * <pre>{@code
 * Operator operator = Operator.builder(client)
 *     .name("app-operator")
 *     .controller(appDeployments)
 *     .leaderElection(LeaderElection.onLease("operators", "app-operator"))
 *     .build();
 * operator.start();
 * Runtime.getRuntime().addShutdownHook(new Thread(operator::stop));
 * }</pre>
 *
 * <p>Workers start once every cache has synced and, with leader election, once this instance holds
 * the lease. Losing the lease stops reconciling and is reported through {@link #health()} and
 * {@link OperatorBuilder#onLeadershipLost}; the library never exits the JVM.
 */
public final class Operator implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Operator.class);

  /** How long stop() waits for interrupted reconciles to end before leaving the Lease to expire. */
  private static final Duration INTERRUPTED_GRACE = Duration.ofSeconds(5);

  private final KubernetesClient client;
  private final boolean ownsClient;
  private final String name;
  private final int httpPort;
  private final MeterRegistry registry;
  private final List<Map.Entry<String, Component>> components;
  private final CountDownLatch ended = new CountDownLatch(1);
  private volatile ServedParts served;
  private final SharedInformers informers;
  private final List<ControllerRuntime<?>> controllers = new ArrayList<>();
  private final Optional<LeaderElection> leaderElection;
  private final Duration shutdownTimeout;
  private final Duration cacheSyncTimeout;
  private final Runnable onLeadershipLost;
  private final LeadershipLoss leadershipLoss;
  private final RejectedObjects rejected;
  private final OperatorPermissions permissions;
  private final AccessChecks access;
  private final Optional<StrategySelector> strategies;
  private final Set<Class<? extends HasMetadata>> kinds = new LinkedHashSet<>();
  private final EventRecorder ownEvents;
  private final HungReconcileWatchdog watchdog;
  private final boolean hungReconcileFailsLiveness;
  private final AtomicReference<OperatorState> state = new AtomicReference<>(OperatorState.NEW);
  private final AtomicReference<String> syncTimeout = new AtomicReference<>();
  private final AtomicInteger terms = new AtomicInteger();
  private volatile CompletableFuture<Void> synced = new CompletableFuture<>();

  /** This instance's part in the leader election; null without leader election. */
  private final LeaseElection election;

  /**
   * With leader election, what every write of this instance passes: closed unless this instance
   * holds the Lease and renewed it recently enough (see {@link LeaseFence}); null without.
   */
  private final LeaseFence fence;

  /** The client of the fenced writes, closed on stop; null without leader election. */
  private final KubernetesClient fencedClient;

  private volatile boolean workersStarted;

  /** In a dry run, what compares each write with the object as it is; null otherwise. */
  private final DryRunRecorder dryRun;

  /** In a dry run, the client whose every write is a dry run, closed on stop; null otherwise. */
  private final KubernetesClient dryRunClient;

  /** In a dry run, the one pass over the primaries; null otherwise. */
  private final DryRunPass pass;

  /** This replica's part in a sharded operator; null unless sharded. */
  private final ShardedReplica shards;

  private final DryRunReport.Format dryRunOutput;

  Operator(OperatorBuilder b) {
    this.client = b.client;
    this.ownsClient = b.ownsClient;
    this.name = b.name;
    this.httpPort = b.httpPort;
    this.registry = b.registry != null ? b.registry : new SimpleMeterRegistry();
    // A dry run starts no component: a component gets the operator's own client (a webhook server
    // patching its configuration would write for real) and serves the API server, which a pass
    // that ends on its own must not do.
    this.components =
        b.dryRun
            ? List.of()
            : b.components.stream()
                .<Map.Entry<String, Component>>map(c -> Map.entry(c.name(), c.component()))
                .toList();
    // A dry run writes nothing, so it needs no Lease; taking one would stop the operator that
    // really runs, whose changes the dry run is meant to preview beside it.
    this.leaderElection = b.dryRun ? Optional.empty() : b.leaderElection;
    this.dryRunOutput = b.dryRunOutput;
    this.shutdownTimeout = b.shutdownTimeout;
    this.onLeadershipLost = b.onLeadershipLost;
    this.leadershipLoss = b.leadershipLoss;
    this.cacheSyncTimeout = b.cacheSyncTimeout;
    this.election =
        this.leaderElection.map(le -> new LeaseElection(b.name, le, b.client)).orElse(null);
    this.fence = election == null ? null : election.fence();
    // Every write the runtime sends for this operator, and those a reconciler sends through its
    // context, go through the fenced client; the informers read through the operator's own.
    this.dryRun = b.dryRun ? new DryRunRecorder(b.client, b.name) : null;
    this.pass = b.dryRun ? new DryRunPass() : null;
    this.dryRunClient = b.dryRun ? DryRunClient.of(b.client, dryRun) : null;
    // Sharded, each replica writes on its own shard Lease; the leader Lease only elects the
    // sharder, whose writes pass the leader's fence.
    ShardMembership membership =
        b.sharded && !b.dryRun
            ? new ShardMembership(b.name, b.leaderElection.orElseThrow(), b.client)
            : null;
    LeaseFence writeFence = membership != null ? membership.fence() : fence;
    KubernetesClient writes =
        b.dryRun
            ? dryRunClient
            : writeFence == null ? b.client : FencedClient.of(b.client, writeFence);
    this.fencedClient = writeFence == null ? null : writes;
    if (writeFence != null) {
      b.metrics.writesFenced(writeFence::fencedWrites);
    }
    Optional<ShardShare> share =
        membership == null
            ? Optional.empty()
            : Optional.of(
                ShardShare.of(
                    membership.labels(), membership.member(), b.controllers, b.extraCaches));
    this.rejected = new RejectedObjects(b.metrics);
    this.informers =
        new SharedInformers(b.client, b.namespaces, b.informerResync, rejected, b.metrics);
    EventRecorder events;
    if (b.dryRun) {
      // Events have no dry run worth having: an Event is a record, not a state to preview.
      events = DryRunClient.unsentEvents(b.name);
    } else {
      events =
          b.events != null
              ? b.events
              : EventRecorder.builder(writes).component(b.name).metrics(b.metrics).build();
    }
    this.ownEvents = b.events == null && !b.dryRun ? events : null;
    rejected.events(events);
    // A status writer of the caller's writes with a client of its own: in a dry run, the default
    // one on the dry-run client takes its place, so that no status is persisted.
    StatusWriter status = b.status != null && !b.dryRun ? b.status : StatusWriter.create(writes);
    if (b.dryRun && (b.status != null || b.events != null || !b.components.isEmpty())) {
      log.info(
          "operator {}: dry run: the status writer and the event recorder given to the builder"
              + " and its components are not used",
          b.name);
    }
    this.strategies = strategies(b);
    this.permissions =
        RequiredPermissions.of(
            b.controllers,
            b.extraCaches,
            strategies,
            leaderElection,
            events.verbs(),
            b.name,
            membership != null);
    this.access =
        new AccessChecks(
            b.client, b.name, permissions, b.namespaces, b.metrics, b.accessReviewInterval);
    RuntimeServices services =
        new RuntimeServices(
            writes,
            informers,
            b.metrics,
            events,
            status,
            strategies,
            b.fieldManager != null ? b.fieldManager : b.name,
            b.ticker,
            b.rateLimit,
            rejected,
            access,
            share);
    for (ControllerDefinition<?> configured : b.controllers) {
      ControllerDefinition<?> definition =
          configured.maxConcurrentReconciles() == 0
              ? configured.withMaxConcurrentReconciles(b.workers)
              : configured;
      kinds.add(definition.primaryType());
      definition.watches().forEach(w -> kinds.add(w.type()));
      definition.indexes().forEach(i -> kinds.add(i.type()));
      ControllerRuntime<?> runtime =
          new ControllerRuntime<>(definition, services, b.reconcileDeadline);
      runtime.register(informers);
      controllers.add(runtime);
    }
    b.extraCaches.forEach(informers::keepWhole);
    kinds.addAll(b.extraCaches);
    this.shards =
        membership == null
            ? null
            : new ShardedReplica(
                b.name,
                membership,
                share.orElseThrow(),
                b.client,
                fence,
                informers,
                b.namespaces,
                registry);
    this.watchdog = new HungReconcileWatchdog(b.name, controllers);
    this.hungReconcileFailsLiveness = b.hungReconcileFailsLiveness;
  }

  /**
   * The configured strategies; without any, those found on the classpath with the default
   * selection. A controller that owns a kind writes it through {@code Context.apply}, so finding
   * none is an error now rather than at its first reconcile.
   */
  private static Optional<StrategySelector> strategies(OperatorBuilder b) {
    String notFound;
    try {
      Optional<StrategySelector> selector = b.selector();
      if (selector.isPresent()) {
        return selector;
      }
      notFound = "no strategy jar is on the classpath.";
    } catch (StrategyConfigurationException e) {
      if (b.selectionSet() || b.strategies.isPresent()) {
        throw e;
      }
      notFound = e.getMessage();
    }
    List<String> owners = new ArrayList<>();
    for (ControllerDefinition<?> definition : b.controllers) {
      for (WatchDefinition<?> watch : definition.watches()) {
        if (watch.handler() instanceof EnqueueControllerOwner<?>) {
          owners.add(
              "controller " + definition.name() + " owns " + HasMetadata.getKind(watch.type()));
        }
      }
    }
    if (owners.isEmpty()) {
      return Optional.empty();
    }
    throw new StrategyConfigurationException(
        String.join(", ", owners)
            + " and writes what it"
            + " owns with Context.apply, but no strategy is configured and none can be found: "
            + notFound
            + " Add a strategy jar (converge-strategies-ssa, -update or -patch) to"
            + " the classpath, or add one with OperatorBuilder.strategy(...).");
  }

  /**
   * Starts configuring an operator that makes its own client ({@link OperatorBuilder#clientConfig},
   * default the kubeconfig or the in-cluster service account) and closes it when it stops: the way
   * a process runs one. On a JVM that sees one or two processors, it first keeps the JDK's
   * asynchronous stages on pooled threads, so that no HTTP client made later starts a thread for
   * every API response.
   *
   * @return a builder with every setting at its default
   */
  public static OperatorBuilder builder() {
    CommonPool.ensureAsyncPool();
    return new OperatorBuilder(null);
  }

  /**
   * Starts configuring an operator on {@code client}, which stays the caller's: the operator does
   * not close it. For tests and for processes that share one client.
   *
   * @param client the client the operator reads and writes with
   * @return a builder with every other setting at its default
   */
  public static OperatorBuilder builder(KubernetesClient client) {
    return new OperatorBuilder(Objects.requireNonNull(client, "client"));
  }

  /**
   * Runs the operator until the process is asked to stop (SIGTERM from the kubelet, Ctrl-C), then
   * stops it gracefully from the JVM's shutdown: controllers first, then the components and the
   * probes, the caches, and with leader election the Lease last. Meant to end {@code main}, which
   * exits the JVM with the code it returns (the library itself never exits it).
   *
   * <p>After a lost Lease with {@link LeadershipLoss#STOP} the process keeps running and reports
   * itself not live, so that the kubelet restarts it; {@link LeadershipLoss#REJOIN} stands for
   * election again in the same process.
   *
   * @return the exit code: 0 once stopped by a signal; 1 when it could not start for another reason
   *     than its configuration (the API server unreachable: the cause is logged); 2 when it could
   *     not start because of its configuration (a strategy naming no served kind, a port in use, a
   *     component failing), printed as one line on standard error
   */
  public int run() {
    try {
      start();
    } catch (StrategyConfigurationException | IllegalArgumentException e) {
      System.err.println(name + ": " + e.getMessage());
      stop(Duration.ZERO);
      return CONFIGURATION_ERROR;
    } catch (RuntimeException e) {
      // the API server unreachable or refusing at start: one line, the cause in the log, and an
      // exit code that lets the kubelet restart the process
      log.error("operator {}: could not start", name, e);
      System.err.println(name + ": could not start: " + e);
      stop(Duration.ZERO);
      return 1;
    }
    Thread hook = new Thread(this::stop, "converge-" + name + "-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    if (dryRun != null) {
      return runDryRun(hook);
    }
    try {
      ended.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop();
      return 1;
    }
    return 0;
  }

  /** Exit code of {@link #run()} when the operator's configuration keeps it from starting. */
  public static final int CONFIGURATION_ERROR = 2;

  /** {@link #run()} of a dry run: one pass, its report on standard output. */
  private int runDryRun(Thread hook) {
    DryRunReport report;
    try {
      report = dryRunPass();
    } catch (RuntimeException e) {
      log.error("operator {}: the dry run failed", name, e);
      System.err.println(name + ": dry run failed: " + e.getMessage());
      stop(Duration.ZERO);
      return 1;
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        log.debug("operator {}: the JVM is shutting down", name);
      }
    }
    System.out.print(report.render(dryRunOutput));
    System.out.flush();
    return 0;
  }

  /**
   * Runs one dry-run pass and stops: starts the operator if it is not started, waits for its caches
   * (up to {@link OperatorBuilder#cacheSyncTimeout}), reconciles every primary the caches then hold
   * once (a requeue, a delay or a failure counts as its reconcile), sends every write as a
   * server-side dry run and compares the server's answers with the objects as they are. Nothing is
   * persisted: no write, no Event, no Lease. Waits for the pass without a limit; a hung reconcile
   * shows in {@link #health()}.
   *
   * @return what the pass would change
   * @throws IllegalStateException when the operator was not built with {@link
   *     OperatorBuilder#dryRun}, already ran, or its caches did not sync
   */
  public DryRunReport dryRunPass() {
    return dryRunPass(Duration.ZERO);
  }

  /**
   * As {@link #dryRunPass()}, giving up after {@code timeout}.
   *
   * @param timeout how long the pass may take once the caches synced; zero for no limit
   * @return what the pass would change
   * @throws IllegalStateException when the operator was not built with {@link
   *     OperatorBuilder#dryRun}, already ran, its caches did not sync, or the pass did not end in
   *     time (the operator is stopped then)
   */
  public DryRunReport dryRunPass(Duration timeout) {
    if (dryRun == null) {
      throw new IllegalStateException(
          "operator " + name + " was not built for a dry run: build it with dryRun(true)");
    }
    synchronized (this) {
      if (state.get() == OperatorState.NEW) {
        start();
      } else if (pass.done().isDone() || state.get() == OperatorState.STOPPED) {
        throw new IllegalStateException(
            "operator " + name + " ran its dry-run pass already; build another for a new pass");
      }
    }
    try {
      awaitSyncForPass();
      if (timeout.isZero()) {
        pass.done().get();
      } else {
        pass.done().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      }
      // The pass is over: what is queued now (requeues, later events) is not reconciled.
      boolean clean = stopControllers(shutdownTimeout);
      if (!clean) {
        log.warn("operator {}: dry run: some reconciles were interrupted at the end", name);
      }
      List<String> failures = new ArrayList<>(pass.failures());
      List<DryRunReport.Entry> entries = dryRun.entries(Duration.ofMinutes(5));
      dryRun.problems().forEach(p -> failures.add("not compared: " + p));
      DryRunReport report = new DryRunReport(entries, pass.primaries(), failures);
      log.info("operator {}: dry run: {}", name, report.summary().replace('\n', ';'));
      return report;
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "operator " + name + ": the dry-run pass did not end within " + timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("operator " + name + ": interrupted in the dry run", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "operator " + name + ": the dry run failed: " + e.getCause(), e.getCause());
    } finally {
      stop();
    }
  }

  /** Waits for the caches as the pass needs them, failing when they do not sync in time. */
  private void awaitSyncForPass()
      throws InterruptedException, ExecutionException, TimeoutException {
    if (cacheSyncTimeout.isZero()) {
      synced.get();
      return;
    }
    try {
      synced.get(cacheSyncTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "operator "
              + name
              + ": dry run: the caches did not sync within "
              + cacheSyncTimeout.toSeconds()
              + " s: "
              + String.join("; ", informers.unsynced()),
          e);
    }
  }

  /**
   * Whether this operator sends its writes as dry runs ({@link OperatorBuilder#dryRun}).
   *
   * @return true for a dry-run operator
   */
  public boolean isDryRun() {
    return dryRun != null;
  }

  /**
   * The port the probes and metrics are served on, once started; -1 without {@link
   * OperatorBuilder#httpPort}.
   *
   * @return the port actually bound once started (the one chosen for port 0), else the one
   *     configured
   */
  public int httpPort() {
    ServedParts parts = served;
    return parts == null || parts.port() < 0 ? httpPort : parts.port();
  }

  /**
   * The operator's meter registry: the one it was given, or the one it made. Code beside the
   * controllers registers its own meters there to have them served on {@code /metrics}.
   *
   * @return the registry
   */
  public MeterRegistry meterRegistry() {
    return registry;
  }

  /**
   * The client the operator reads with (its writes go through a fenced view of it).
   *
   * @return the client; the operator's own one is closed when the operator stops
   */
  public KubernetesClient client() {
    return client;
  }

  /**
   * Starts informers and, once they have synced, the workers (with leader election: once this
   * instance leads). Returns at once; see {@link #awaitCachesSynced} and {@link #health()}.
   *
   * @throws dev.converge.strategy.StrategyConfigurationException when the strategy selection names
   *     a kind the API server does not serve (a misspelt key), naming the near kind; nothing has
   *     been started then
   */
  public synchronized void start() {
    if (state.get() != OperatorState.NEW) {
      throw new IllegalStateException(
          "operator "
              + name
              + " was already started (state "
              + state.get()
              + "); an operator runs once");
    }
    strategies.ifPresent(s -> StrategyKindCheck.check(client, s.selection(), kinds));
    if (!state.compareAndSet(OperatorState.NEW, OperatorState.STANDBY)) {
      throw new IllegalStateException(
          "operator "
              + name
              + " was already started (state "
              + state.get()
              + "); an operator runs once");
    }
    if (!CommonPool.sharesThreads()
        && client.getHttpClient().getClass().getName().contains(".jdk.")) {
      log.warn(
          "operator {}: the JDK HTTP client starts a thread for every API response on this JVM"
              + " (the common ForkJoinPool has parallelism {}); start it with -D{}=2, or run it"
              + " with Operator.builder(), which sets it",
          name,
          ForkJoinPool.getCommonPoolParallelism(),
          CommonPool.PARALLELISM);
    }
    startServing();
    access.start();
    watchdog.start();
    synced = informers.start();
    CacheWarmUp.start(name, client, informers.wholeKinds());
    synced =
        synced.whenComplete(
            (v, t) -> {
              if (t == null) {
                log.info("operator {}: caches synced", name);
              }
            });
    if (!cacheSyncTimeout.isZero()) {
      CompletableFuture.delayedExecutor(cacheSyncTimeout.toMillis(), TimeUnit.MILLISECONDS)
          .execute(this::checkSynced);
    }
    if (leaderElection.isEmpty()) {
      state.set(OperatorState.RUNNING);
      startWorkersOnceSynced();
      return;
    }
    if (shards != null) {
      shards.start(this::joinedRing, this::lostRing);
    }
    joinElection();
  }

  private void joinElection() {
    if (shards != null) {
      election.join(
          shards::startedLeading,
          () -> shards.stoppedLeading(this::rejoinElection),
          () -> state.get() == OperatorState.STOPPED);
      return;
    }
    election.join(
        this::startedLeading, this::stoppedLeading, () -> state.get() == OperatorState.STOPPED);
  }

  /** Sharded: the sharder role is lost; this replica stands for it again while it is a member. */
  private void rejoinElection() {
    OperatorState now = state.get();
    if (now == OperatorState.RUNNING || now == OperatorState.STANDBY) {
      joinElection();
    }
  }

  /** Sharded: this replica's shard Lease was accepted for the first time. */
  private void joinedRing() {
    if (state.compareAndSet(OperatorState.STANDBY, OperatorState.RUNNING)) {
      log.info("operator {}: reconciling its shard once caches are synced", name);
      startWorkersOnceSynced();
    }
  }

  /** Sharded: the shard Lease ran out. Its objects go to the others; this replica stops. */
  private void lostRing() {
    if (state.compareAndSet(OperatorState.RUNNING, OperatorState.LEADERSHIP_LOST)) {
      pauseWorkers();
      election.cancel();
      shards.stopSharder();
      Thread after = new Thread(this::afterLoss, "converge-" + name + "-shard-lost");
      after.setDaemon(true);
      after.start();
    }
  }

  /** The probes and the components, before the caches; on a failure, nothing stays started. */
  private void startServing() {
    try {
      served = ServedParts.start(name, httpPort, this::health, registry, components, client);
    } catch (Exception e) {
      state.set(OperatorState.STOPPED);
      if (ownsClient) {
        client.close();
      }
      ended.countDown();
      if (e instanceof IllegalArgumentException || e instanceof StrategyConfigurationException) {
        throw (RuntimeException) e;
      }
      throw new IllegalArgumentException(
          "operator " + name + " could not start: " + e.getMessage(), e);
    }
  }

  private void closeServing() {
    ServedParts parts = served;
    if (parts != null) {
      parts.close();
    }
  }

  private void checkSynced() {
    if (synced.isDone() || state.get() == OperatorState.STOPPED) {
      return;
    }
    String message =
        "informer caches did not sync within "
            + cacheSyncTimeout.toSeconds()
            + " s: "
            + String.join("; ", informers.unsynced())
            + ". No controller reconciles until they do";
    syncTimeout.set(message);
    log.error("operator {}: {}", name, message);
  }

  private void startedLeading() {
    if (state.compareAndSet(OperatorState.STANDBY, OperatorState.RUNNING)) {
      if (fence != null) {
        fence.leading();
      }
      log.info("operator {}: became leader; reconciling once caches are synced", name);
      startWorkersOnceSynced();
    }
  }

  /**
   * Starts the workers when the caches have synced; a failure to start them is logged, not lost.
   */
  private void startWorkersOnceSynced() {
    synced
        .thenRun(this::startWorkers)
        .exceptionally(
            t -> {
              log.error("operator {}: starting the workers failed", name, t);
              return null;
            });
  }

  private void stoppedLeading() {
    if (fence != null) {
      fence.closed(); // the fence has closed on its own by now unless the Lease was taken early
    }
    if (state.compareAndSet(OperatorState.RUNNING, OperatorState.LEADERSHIP_LOST)) {
      log.error(
          "operator {}: lost the leader lease; stopped reconciling{}",
          name,
          leadershipLoss == LeadershipLoss.REJOIN
              ? " and rejoining the election"
              : ". Restart the process to rejoin the election");
      // Another instance may hold the lease within seconds: running reconciles are interrupted
      // at once instead of being given the graceful shutdown timeout, so two leaders do not
      // write the same objects side by side.
      pauseWorkers();
      Thread after = new Thread(this::afterLoss, "converge-" + name + "-leadership-lost");
      after.setDaemon(true);
      after.start();
    }
  }

  /** Ends every worker now (interrupting reconciles); the queues and caches stay. */
  private synchronized void pauseWorkers() {
    workersStarted = false;
    for (ControllerRuntime<?> controller : controllers) {
      controller.pauseWorkers(Duration.ZERO);
    }
  }

  /**
   * Waits until every reconcile of the lost term has ended, however long that takes, before this
   * instance may lead again: a reconcile of the old term running beside one of the new would
   * reconcile one object twice at once, and the fence, open again, would let both write.
   */
  private void afterLoss() {
    Duration grace = leaderElection.map(LeaderElection::leaseDuration).orElse(Duration.ZERO);
    for (ControllerRuntime<?> controller : controllers) {
      while (!controller.awaitWorkersEnded(grace)) {
        if (state.get() == OperatorState.STOPPED) {
          return;
        }
        log.warn(
            "operator {}: {} reconcile(s) of controller {} ignore interruption and still run"
                + " after losing the Lease (their writes are not sent); not rejoining the election"
                + " until they end",
            name,
            controller.activeReconciles(),
            controller.name());
      }
    }
    if (leadershipLoss == LeadershipLoss.REJOIN
        && shards == null
        && state.compareAndSet(OperatorState.LEADERSHIP_LOST, OperatorState.STANDBY)) {
      joinElection();
      return;
    }
    if (state.get() == OperatorState.LEADERSHIP_LOST) {
      stopControllers(Duration.ZERO);
      try {
        onLeadershipLost.run();
      } catch (RuntimeException e) {
        log.error("operator {}: the onLeadershipLost callback threw", name, e);
      }
    }
  }

  private synchronized void startWorkers() {
    if (state.get() != OperatorState.RUNNING || workersStarted) {
      return;
    }
    workersStarted = true;
    boolean again = terms.incrementAndGet() > 1;
    if (pass != null) {
      controllers.forEach(pass::expect);
      pass.begin();
    }
    for (ControllerRuntime<?> controller : controllers) {
      if (again) {
        // What the previous leader did meanwhile is unknown: look at everything once more.
        controller.requeueAll();
      }
      controller.startWorkers();
    }
  }

  /**
   * Waits until every informer has delivered its initial list.
   *
   * @param timeout how long to wait at most
   * @return false if that did not happen within {@code timeout}, or the wait was interrupted
   * @throws IllegalStateException when an informer failed to start
   */
  public boolean awaitCachesSynced(Duration timeout) {
    try {
      synced.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "operator " + name + ": informers failed to start", e.getCause());
    }
  }

  /**
   * Graceful shutdown with the configured timeout (default 30 s).
   *
   * @return true when every running reconcile finished within the timeout
   */
  public boolean stop() {
    return stop(shutdownTimeout);
  }

  /**
   * Stops taking work, waits up to {@code timeout} for running reconciles, then gives up the lease
   * and stops the informers. Idempotent.
   *
   * @param timeout how long running reconciles may take to finish
   * @return true when every running reconcile finished within the timeout
   */
  public boolean stop(Duration timeout) {
    OperatorState before = state.getAndSet(OperatorState.STOPPED);
    if (before == OperatorState.STOPPED) {
      return true;
    }
    log.info("operator {}: shutting down (waiting up to {} for running reconciles)", name, timeout);
    boolean clean = stopControllers(timeout);
    boolean workersEnded = clean;
    if (!clean) {
      workersEnded = true;
      for (ControllerRuntime<?> controller : controllers) {
        workersEnded &= controller.awaitWorkersEnded(INTERRUPTED_GRACE);
      }
    }
    if (election != null) {
      election.cancel();
    }
    if (ownEvents != null) {
      ownEvents.close(); // its last Events are sent while this instance still holds the Lease
    }
    if (shards != null) {
      shards.stop(workersEnded); // leaves the ring: the others take its objects at once
    }
    if (fence != null) {
      fence.closed(); // from here on nothing of this instance is written
    }
    closeServing();
    informers.stop();
    rejected.stop();
    access.stop();
    watchdog.stop();
    if (election != null && before == OperatorState.RUNNING) {
      if (workersEnded) {
        election.release(); // a standby takes over at once instead of after the lease duration
      } else {
        log.warn(
            "operator {}: some reconciles still run after being interrupted; the Lease is"
                + " not released and expires after {} s, so that no other instance writes alongside"
                + " them",
            name,
            leaderElection.orElseThrow().leaseDuration().toSeconds());
      }
    }
    if (election != null) {
      election.close();
    }
    if (fencedClient != null) {
      fencedClient.close();
    }
    if (dryRunClient != null) {
      dryRunClient.close();
      dryRun.close();
    }
    if (ownsClient) {
      client.close();
    }
    log.info("operator {}: stopped{}", name, clean ? "" : " (some reconciles were interrupted)");
    ended.countDown();
    return clean;
  }

  private boolean stopControllers(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean clean = true;
    for (ControllerRuntime<?> controller : controllers) {
      controller.queue().shutDown();
    }
    for (ControllerRuntime<?> controller : controllers) {
      Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
      clean &= controller.stop(left);
    }
    return clean;
  }

  @Override
  public void close() {
    stop();
  }

  /**
   * Where the operator is in its life cycle.
   *
   * @return the state now; it may change right after
   */
  public OperatorState state() {
    return state.get();
  }

  /**
   * What this operator needs from RBAC, computed from its controllers, strategies and settings: the
   * rules of its ClusterRole and, with leader election, of its Role for the Lease. Available
   * without starting it; {@code dev.converge.rbac.build.GenerateRbac} writes them as manifests.
   *
   * @return the permissions
   */
  public OperatorPermissions permissions() {
    return permissions;
  }

  /**
   * Asks the API server now whether this operator still has every permission it needs (the same
   * review that runs at start and every {@link OperatorBuilder#accessReviewInterval}); the answer
   * shows in {@link #health()}.
   */
  public void reviewAccess() {
    access.reviewNow();
  }

  /**
   * The informer caches, for reads outside a reconcile (an HTTP endpoint, a CLI).
   *
   * @return the caches every controller reads
   */
  public Caches caches() {
    return informers;
  }

  /**
   * Liveness and readiness, for probes; {@code problems} says what is wrong, naming the kind. A
   * reconcile running past its deadline is named there (controller, {@code Kind namespace/name},
   * how long it has run) until it ends; it makes the operator not live (and so not ready) only with
   * {@link OperatorBuilder#hungReconcileFailsLiveness}.
   *
   * @return a snapshot taken now
   */
  public OperatorHealth health() {
    OperatorState now = state.get();
    boolean cachesSynced = informers.hasSynced();
    List<String> problems = new ArrayList<>(informers.failures());
    List<String> blind = informers.blind();
    problems.addAll(blind);
    String timedOut = syncTimeout.get();
    if (cachesSynced) {
      timedOut = null;
    } else if (timedOut != null) {
      problems.add(timedOut);
    }
    String electionProblem = election == null ? null : election.failure().orElse(null);
    if (electionProblem != null) {
      problems.add(electionProblem);
    }
    if (now == OperatorState.LEADERSHIP_LOST) {
      problems.add(
          shards != null
              ? shards.lost().orElse("lost its shard Lease; reconciling stopped")
              : "lost the leader lease; reconciling stopped");
    }
    if (shards != null && now == OperatorState.RUNNING) {
      problems.addAll(shards.problems());
    }
    if (!cachesSynced && timedOut == null) {
      problems.add("informer caches have not synced yet");
    }
    boolean workersOk = true;
    if (now == OperatorState.RUNNING && workersStarted) {
      for (ControllerRuntime<?> controller : controllers) {
        int wanted = controller.workersWanted();
        int alive = controller.workersAlive();
        if (alive < wanted) {
          workersOk = false;
          problems.add(
              "controller "
                  + controller.name()
                  + ": "
                  + alive
                  + " of "
                  + wanted
                  + " workers alive");
        }
      }
    }
    problems.addAll(rejected.problems());
    List<String> hung = watchdog.problems();
    problems.addAll(hung);
    List<String> refusedAccess = now == OperatorState.STOPPED ? List.of() : access.problems();
    problems.addAll(refusedAccess);
    if (now == OperatorState.NEW || now == OperatorState.STOPPED) {
      problems.add("operator is " + now.name().toLowerCase(java.util.Locale.ROOT));
    }
    boolean live =
        now != OperatorState.LEADERSHIP_LOST
            && informers.failures().isEmpty()
            && electionProblem == null
            && timedOut == null
            && workersOk
            && (hung.isEmpty() || !hungReconcileFailsLiveness);
    boolean ready =
        live
            && cachesSynced
            && blind.isEmpty()
            && refusedAccess.isEmpty()
            && (now == OperatorState.RUNNING || now == OperatorState.STANDBY);
    return new OperatorHealth(
        live,
        ready,
        now,
        cachesSynced,
        election == null ? Optional.<String>empty() : election.leader(),
        problems);
  }

  /**
   * Delivers a generic event for {@code object} to every controller that watches its kind: for
   * triggers from outside the cluster (a webhook from an external system, a timer of your own). It
   * passes through the watches' predicates ({@code onGeneric}) and handlers like any event.
   *
   * @param object the object the event is about; the caches are not changed by it
   * @throws IllegalArgumentException when no controller watches the object's kind
   */
  public void generic(HasMetadata object) {
    boolean delivered = false;
    for (ControllerRuntime<?> controller : controllers) {
      delivered |= controller.dispatchGeneric(object);
    }
    if (!delivered) {
      throw new IllegalArgumentException(
          "no controller of operator "
              + name
              + " watches "
              + object.getKind()
              + "; generic events go to controllers that watch the kind");
    }
  }

  /**
   * Whether this instance reconciles now.
   *
   * @return true while running as leader, or running without leader election
   */
  public boolean isReconciling() {
    return state.get() == OperatorState.RUNNING;
  }

  /**
   * The operator's name, which its logs, Events and field manager carry.
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  @Override
  public String toString() {
    return "Operator[" + name + ", " + state.get() + ", controllers=" + controllers.size() + "]";
  }
}
