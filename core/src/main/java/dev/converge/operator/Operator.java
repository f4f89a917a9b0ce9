package dev.converge.operator;

import dev.converge.builder.ControllerDefinition;
import dev.converge.event.EventRecorder;
import dev.converge.operator.internal.ControllerRuntime;
import dev.converge.operator.internal.RuntimeServices;
import dev.converge.operator.internal.SharedInformers;
import dev.converge.source.Caches;
import dev.converge.status.StatusWriter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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

  private final KubernetesClient client;
  private final String name;
  private final SharedInformers informers;
  private final List<ControllerRuntime<?>> controllers = new ArrayList<>();
  private final Optional<LeaderElection> leaderElection;
  private final Duration shutdownTimeout;
  private final Runnable onLeadershipLost;
  private final AtomicReference<OperatorState> state = new AtomicReference<>(OperatorState.NEW);
  private final AtomicReference<String> leader = new AtomicReference<>();
  private final AtomicReference<String> electionFailure = new AtomicReference<>();
  private volatile CompletableFuture<Void> synced = new CompletableFuture<>();
  private volatile CompletableFuture<?> election;
  private volatile boolean workersStarted;

  Operator(OperatorBuilder b) {
    this.client = b.client;
    this.name = b.name;
    this.leaderElection = b.leaderElection;
    this.shutdownTimeout = b.shutdownTimeout;
    this.onLeadershipLost = b.onLeadershipLost;
    this.informers = new SharedInformers(b.client, b.namespaces, b.informerResync);
    EventRecorder events =
        b.events != null ? b.events : EventRecorder.builder(b.client).component(b.name).build();
    StatusWriter status = b.status != null ? b.status : StatusWriter.create(b.client);
    RuntimeServices services = new RuntimeServices(b.client, informers, b.metrics, events, status,
        b.strategies, b.fieldManager != null ? b.fieldManager : b.name, b.ticker);
    for (ControllerDefinition<?> definition : b.controllers) {
      ControllerRuntime<?> runtime = new ControllerRuntime<>(definition, services);
      runtime.register(informers);
      controllers.add(runtime);
    }
    b.extraCaches.forEach(informers::require);
  }

  /** Starts configuring an operator on {@code client}. */
  public static OperatorBuilder builder(KubernetesClient client) {
    return new OperatorBuilder(client);
  }

  /**
   * Starts informers and, once they have synced, the workers (with leader election: once this
   * instance leads). Returns at once; see {@link #awaitCachesSynced} and {@link #health()}.
   */
  public synchronized void start() {
    if (!state.compareAndSet(OperatorState.NEW, OperatorState.STANDBY)) {
      throw new IllegalStateException("operator " + name + " was already started (state "
          + state.get() + "); an operator runs once");
    }
    synced = informers.start();
    synced.whenComplete((v, t) -> {
      if (t == null) {
        log.info("operator {}: caches synced", name);
      }
    });
    if (leaderElection.isEmpty()) {
      state.set(OperatorState.RUNNING);
      synced.thenRun(this::startWorkers);
      return;
    }
    LeaderElection le = leaderElection.get();
    log.info("operator {}: standing by for Lease {}/{} as {}", name, le.leaseNamespace(),
        le.leaseName(), le.identity());
    election = client.leaderElector()
        .withConfig(new LeaderElectionConfigBuilder()
            .withName(name)
            .withLock(new LeaseLock(le.leaseNamespace(), le.leaseName(), le.identity()))
            .withLeaseDuration(le.leaseDuration())
            .withRenewDeadline(le.renewDeadline())
            .withRetryPeriod(le.retryPeriod())
            .withReleaseOnCancel()
            .withLeaderCallbacks(new LeaderCallbacks(
                this::startedLeading, this::stoppedLeading, leader::set))
            .build())
        .build()
        .start();
    election.whenComplete((v, t) -> {
      if (t != null && !(t instanceof java.util.concurrent.CancellationException)
          && state.get() != OperatorState.STOPPED) {
        electionFailure.set("leader election ended with an error: " + t);
        log.error("operator {}: leader election for Lease {}/{} ended with an error", name,
            le.leaseNamespace(), le.leaseName(), t);
      }
    });
  }

  private void startedLeading() {
    if (state.compareAndSet(OperatorState.STANDBY, OperatorState.RUNNING)) {
      log.info("operator {}: became leader; reconciling once caches are synced", name);
      synced.thenRun(this::startWorkers);
    }
  }

  private void stoppedLeading() {
    if (state.compareAndSet(OperatorState.RUNNING, OperatorState.LEADERSHIP_LOST)) {
      log.error("operator {}: lost the leader lease; stopped reconciling. Restart the process to"
          + " rejoin the election", name);
      Thread stopper = new Thread(() -> {
        // Another instance may hold the lease within seconds: running reconciles are interrupted
        // at once instead of being given the graceful shutdown timeout, so two leaders do not
        // write the same objects side by side.
        stopControllers(Duration.ZERO);
        try {
          onLeadershipLost.run();
        } catch (RuntimeException e) {
          log.error("operator {}: the onLeadershipLost callback threw", name, e);
        }
      }, "converge-" + name + "-leadership-lost");
      stopper.setDaemon(true);
      stopper.start();
    }
  }

  private synchronized void startWorkers() {
    if (state.get() != OperatorState.RUNNING || workersStarted) {
      return;
    }
    workersStarted = true;
    controllers.forEach(ControllerRuntime::startWorkers);
  }

  /**
   * Waits until every informer has delivered its initial list.
   *
   * @return false if that did not happen within {@code timeout}
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
      throw new IllegalStateException("operator " + name + ": informers failed to start", e.getCause());
    }
  }

  /** Graceful shutdown with the configured timeout (default 30 s). */
  public boolean stop() {
    return stop(shutdownTimeout);
  }

  /**
   * Stops taking work, waits up to {@code timeout} for running reconciles, then gives up the lease
   * and stops the informers. Idempotent.
   *
   * @return true when every running reconcile finished within the timeout
   */
  public boolean stop(Duration timeout) {
    OperatorState before = state.getAndSet(OperatorState.STOPPED);
    if (before == OperatorState.STOPPED) {
      return true;
    }
    log.info("operator {}: shutting down (waiting up to {} for running reconciles)", name, timeout);
    boolean clean = stopControllers(timeout);
    CompletableFuture<?> running = election;
    if (running != null) {
      running.cancel(true); // releases the lease, so a standby takes over at once
    }
    informers.stop();
    log.info("operator {}: stopped{}", name, clean ? "" : " (some reconciles were interrupted)");
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

  public OperatorState state() {
    return state.get();
  }

  /** The informer caches, for reads outside a reconcile (an HTTP endpoint, a CLI). */
  public Caches caches() {
    return informers;
  }

  /** Liveness and readiness, for probes. */
  public OperatorHealth health() {
    OperatorState now = state.get();
    boolean cachesSynced = informers.hasSynced();
    List<String> problems = new ArrayList<>(informers.failures());
    String electionProblem = electionFailure.get();
    if (electionProblem != null) {
      problems.add(electionProblem);
    }
    if (now == OperatorState.LEADERSHIP_LOST) {
      problems.add("lost the leader lease; reconciling stopped");
    }
    if (!cachesSynced) {
      problems.add("informer caches have not synced yet");
    }
    if (now == OperatorState.NEW || now == OperatorState.STOPPED) {
      problems.add("operator is " + now.name().toLowerCase(java.util.Locale.ROOT));
    }
    boolean live = now != OperatorState.LEADERSHIP_LOST && informers.failures().isEmpty()
        && electionProblem == null;
    boolean ready = live && cachesSynced
        && (now == OperatorState.RUNNING || now == OperatorState.STANDBY);
    return new OperatorHealth(live, ready, now, cachesSynced, Optional.ofNullable(leader.get()),
        problems);
  }

  /**
   * Delivers a generic event for {@code object} to every controller that watches its kind: for
   * triggers from outside the cluster (a webhook from an external system, a timer of your own).
   * It passes through the watches' predicates ({@code onGeneric}) and handlers like any event.
   *
   * @throws IllegalArgumentException when no controller watches the object's kind
   */
  public void generic(HasMetadata object) {
    boolean delivered = false;
    for (ControllerRuntime<?> controller : controllers) {
      delivered |= controller.dispatchGeneric(object);
    }
    if (!delivered) {
      throw new IllegalArgumentException("no controller of operator " + name + " watches "
          + object.getKind() + "; generic events go to controllers that watch the kind");
    }
  }

  /** True while this instance reconciles (leader, or no leader election). */
  public boolean isReconciling() {
    return state.get() == OperatorState.RUNNING;
  }

  public String name() {
    return name;
  }

  @Override
  public String toString() {
    return "Operator[" + name + ", " + state.get() + ", controllers=" + controllers.size() + "]";
  }
}
