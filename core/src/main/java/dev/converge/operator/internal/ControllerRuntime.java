package dev.converge.operator.internal;

import dev.converge.builder.ControllerDefinition;
import dev.converge.builder.IndexDefinition;
import dev.converge.builder.WatchDefinition;
import dev.converge.handler.internal.EnqueueControllerOwner;
import dev.converge.handler.internal.EnqueueSelf;
import dev.converge.metrics.ControllerMetrics.ReconcileOutcome;
import dev.converge.operator.OperatorBuilder;
import dev.converge.queue.internal.WorkQueue;
import dev.converge.reconcile.ObjectKey;
import dev.converge.reconcile.Refusal;
import dev.converge.reconcile.Result;
import dev.converge.retry.ConflictRetry;
import dev.converge.source.ResourceEvent;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs one controller: routes informer events through predicates and handlers into a work queue,
 * and runs reconciles on a fixed set of worker threads.
 */
public final class ControllerRuntime<P extends HasMetadata> {

  /** MDC key holding {@code Kind namespace/name} during a reconcile. */
  public static final String MDC_RESOURCE = "resource";

  /** MDC key holding the controller name during a reconcile. */
  public static final String MDC_CONTROLLER = "controller";

  private static final Logger log = LoggerFactory.getLogger(ControllerRuntime.class);

  private final ControllerDefinition<P> definition;
  private final RuntimeServices services;
  private final String kind;
  private final WorkQueue<ObjectKey> queue;
  private final AtomicInteger active = new AtomicInteger();

  /**
   * Primaries whose status write found them deleted on the API server, with the resourceVersion the
   * cache still holds: not reconciled again until the cache catches up.
   */
  private final Map<ObjectKey, String> goneOnServer = new ConcurrentHashMap<>();

  /**
   * Primaries woken because a child they control was deleted: before they recreate it, the API
   * server is asked whether they still exist.
   */
  private final Set<ObjectKey> ownerToVerify = ConcurrentHashMap.newKeySet();

  /** Failures that stand for a primary's generation: refusals and permanent failures. */
  private final StandingFailures failures;

  private final AtomicInteger pools = new AtomicInteger();
  private volatile WorkerPool pool;

  /**
   * The pool paused last, while any of its reconciles may still run: waited for before the workers
   * start again, and counted among the live workers until then.
   */
  private volatile WorkerPool paused;

  /** The reconciles running now, watched for their deadline. */
  private final ReconcileDeadlines deadlines;

  /** Deletes what a done reconcile no longer applied; null when the controller does not prune. */
  private final OwnedChildPruner pruner;

  /** Told of each key handled; a dry-run pass counts them. */
  private volatile Listener listener = Listener.NONE;

  /** What hears of each key a worker has handled: for a pass that reconciles each object once. */
  public interface Listener {
    /** Hears nothing. */
    Listener NONE =
        new Listener() {
          @Override
          public void processed(String controller, ObjectKey key) {}

          @Override
          public void failed(String controller, String kind, ObjectKey key, Throwable failure) {}
        };

    /** A worker is done with {@code key}, whatever the outcome. */
    void processed(String controller, ObjectKey key);

    /** The reconcile of {@code key} threw {@code failure} (before {@link #processed}). */
    void failed(String controller, String kind, ObjectKey key, Throwable failure);
  }

  /** The threads of one start of the workers, and how many of their loops are alive. */
  private static final class WorkerPool {
    final ExecutorService executor;
    final AtomicInteger alive = new AtomicInteger();
    volatile boolean closing;

    WorkerPool(ExecutorService executor) {
      this.executor = executor;
    }
  }

  public ControllerRuntime(ControllerDefinition<P> definition, RuntimeServices services) {
    this(definition, services, OperatorBuilder.DEFAULT_RECONCILE_DEADLINE);
  }

  /**
   * A runtime whose reconciles are reported as hung after the definition's deadline, or after
   * {@code defaultDeadline} when the definition sets none.
   */
  public ControllerRuntime(
      ControllerDefinition<P> definition, RuntimeServices services, Duration defaultDeadline) {
    // 0 leaves the count to the operator, which resolves it before; alone, one worker
    if (definition.maxConcurrentReconciles() == 0) {
      definition = definition.withMaxConcurrentReconciles(1);
    }
    this.definition = definition;
    this.services = services;
    this.deadlines =
        new ReconcileDeadlines(
            definition, definition.reconcileDeadline().orElse(defaultDeadline), services);
    this.kind = HasMetadata.getKind(definition.primaryType());
    this.failures = new StandingFailures(definition, services);
    this.pruner = definition.pruneOwned() ? new OwnedChildPruner(definition, services) : null;
    this.queue =
        new WorkQueue<>(
            services.ticker(),
            definition.backoff(),
            services.rateLimit(),
            services.metrics().queue(definition.name()));
    services.metrics().activeWorkers(definition.name(), active::get);
    services.metrics().workersAlive(definition.name(), this::workersAlive);
    services.metrics().reconcilesHung(definition.name(), deadlines::hungCount);
  }

  public String name() {
    return definition.name();
  }

  public ControllerDefinition<P> definition() {
    return definition;
  }

  public WorkQueue<ObjectKey> queue() {
    return queue;
  }

  /** Declares the informers, indexes and event handlers this controller needs. */
  public void register(SharedInformers informers) {
    informers.require(definition.primaryType());
    for (IndexDefinition<?> index : definition.indexes()) {
      informers.addIndex(index);
    }
    for (WatchDefinition<?> watch : definition.watches()) {
      registerWatch(informers, watch);
    }
  }

  private <T extends HasMetadata> void registerWatch(
      SharedInformers informers, WatchDefinition<T> watch) {
    String watchedKind = HasMetadata.getKind(watch.type());
    if (watch.handler() instanceof EnqueueControllerOwner) {
      informers.keepWhole(watch.type()); // owned: written through strategies, which need it all
    }
    informers.addHandler(
        watch.type(),
        new ResourceEventHandler<T>() {
          @Override
          public void onAdd(T obj) {
            dispatch(watch, watchedKind, new ResourceEvent.Created<>(obj));
          }

          @Override
          public void onUpdate(T oldObj, T newObj) {
            dispatch(watch, watchedKind, new ResourceEvent.Updated<>(oldObj, newObj));
          }

          @Override
          public void onDelete(T obj, boolean deletedFinalStateUnknown) {
            dispatch(
                watch, watchedKind, new ResourceEvent.Deleted<>(obj, deletedFinalStateUnknown));
          }
        });
  }

  /** Routes one event through the watch's predicate and handler into the queue. */
  public <T extends HasMetadata> void dispatch(WatchDefinition<T> watch, ResourceEvent<T> event) {
    dispatch(watch, HasMetadata.getKind(watch.type()), event);
  }

  private <T extends HasMetadata> void dispatch(
      WatchDefinition<T> watch, String watchedKind, ResourceEvent<T> event) {
    String place =
        "watch of "
            + watchedKind
            + " by controller "
            + definition.name()
            + " (predicate and "
            + watch.handler()
            + ")";
    if (handOverAsked(watch, event)) {
      // The sharder's request passes whatever the predicates say: a label-only update would not
      // pass a generation predicate, and the object would never be handed over.
      queue.add(ObjectKey.of(event.object()));
      return;
    }
    Collection<ObjectKey> keys;
    try {
      if (!watch.predicate().test(event)) {
        services.rejected().accepted(event.object(), place);
        return;
      }
      keys = watch.handler().keysFor(event, services.caches());
      if (keys == null) {
        throw new IllegalStateException("the handler returned null instead of a collection");
      }
    } catch (RuntimeException e) {
      // One object whose mapping fails must not stop the others: report it and drop this event.
      services.rejected().reject(event.object(), place, e);
      return;
    }
    services.rejected().accepted(event.object(), place);
    boolean childDeleted =
        event instanceof ResourceEvent.Deleted<T>
            && watch.handler() instanceof EnqueueControllerOwner;
    boolean byWatch =
        !(watch.handler() instanceof EnqueueSelf) || event instanceof ResourceEvent.Generic<T>;
    for (ObjectKey key : keys) {
      if (childDeleted) {
        ownerToVerify.add(key);
      }
      if (byWatch) {
        failures.woken(key);
      }
      queue.add(key);
    }
  }

  private <T extends HasMetadata> boolean handOverAsked(
      WatchDefinition<T> watch, ResourceEvent<T> event) {
    return services.shard().isPresent()
        && watch.handler() instanceof EnqueueSelf
        && event instanceof ResourceEvent.Updated<T>
        && watch.type() == definition.primaryType()
        && services.shard().get().draining(event.object());
  }

  /**
   * Routes a generic event (a trigger from outside the watch streams) for {@code object} through
   * every watch of its kind.
   *
   * @return true when this controller watches the object's kind
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public boolean dispatchGeneric(HasMetadata object) {
    boolean watched = false;
    for (WatchDefinition<?> watch : definition.watches()) {
      if (watch.type().isInstance(object)) {
        watched = true;
        dispatch((WatchDefinition) watch, new ResourceEvent.Generic<>(object));
      }
    }
    return watched;
  }

  /** Sets what hears of each key handled, before the workers start. */
  public void listener(Listener heard) {
    this.listener = Objects.requireNonNull(heard, "listener");
  }

  /** The primaries the cache holds now. */
  public List<P> cachedPrimaries() {
    return services.caches().of(definition.primaryType()).list();
  }

  /** Queues every cached primary, as after a start: for a new term as leader. */
  public void requeueAll() {
    for (P primary : services.caches().of(definition.primaryType()).list()) {
      queue.add(ObjectKey.of(primary));
    }
  }

  /** Starts the workers; reconciles begin for whatever is queued. */
  public synchronized void startWorkers() {
    if (pool != null || queue.isShutDown()) {
      return; // already running, or stop() came first: starting now would leak the pool
    }
    int size = definition.maxConcurrentReconciles();
    int generation = pools.incrementAndGet();
    AtomicInteger n = new AtomicInteger();
    WorkerPool started =
        new WorkerPool(
            Executors.newFixedThreadPool(
                size,
                r -> {
                  Thread t =
                      new Thread(
                          r,
                          "converge-"
                              + definition.name()
                              + "-worker-"
                              + (generation == 1 ? "" : generation + "-")
                              + n.incrementAndGet());
                  t.setDaemon(true);
                  return t;
                }));
    for (int i = 0; i < size; i++) {
      launch(started);
    }
    // Published once every worker counts as alive: health() compares the alive workers with the
    // wanted ones, and a pool seen half launched read as dead workers (a /healthz 503 at start).
    pool = started;
    log.info("controller {}: started {} worker(s) for {}", definition.name(), size, kind);
  }

  private void launch(WorkerPool target) {
    target.alive.incrementAndGet();
    try {
      target.executor.execute(() -> workLoop(target));
    } catch (RejectedExecutionException stopping) {
      target.alive.decrementAndGet(); // the pool is shutting down: nothing to replace
    }
  }

  /**
   * Stops taking work and waits up to {@code timeout} for running reconciles to finish; after that,
   * interrupts them.
   *
   * @return true when no reconcile was left running
   */
  public boolean stop(Duration timeout) {
    queue.shutDown();
    WorkerPool running;
    synchronized (this) {
      running = pool;
    }
    if (running == null) {
      return true;
    }
    running.closing = true;
    running.executor.shutdown();
    try {
      if (running.executor.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        log.info("controller {}: stopped", definition.name());
        return true;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    log.warn(
        "controller {}: {} reconcile(s) still running after {}; interrupting them",
        definition.name(),
        active.get(),
        timeout);
    running.executor.shutdownNow();
    return false;
  }

  /**
   * Ends the workers at once (running reconciles are interrupted) but keeps the queue, so that
   * {@link #startWorkers} can start new ones later: for an instance that lost leadership and
   * rejoins the election.
   *
   * @return true when every worker ended within {@code timeout}
   */
  public boolean pauseWorkers(Duration timeout) {
    WorkerPool running;
    synchronized (this) {
      running = pool;
      pool = null;
      if (running != null) {
        paused = running;
      }
    }
    if (running == null) {
      return true;
    }
    running.closing = true;
    running.executor.shutdownNow();
    boolean ended = awaitEnded(running, timeout);
    log.info(
        "controller {}: workers {}",
        definition.name(),
        ended ? "paused" : "asked to pause; some reconciles ignore interruption and still run");
    return ended;
  }

  /**
   * Waits until no worker of this controller runs any more (after {@link #stop} interrupted them),
   * so that nothing of this instance writes once it hands over to another.
   *
   * @return true when every worker has ended
   */
  public boolean awaitWorkersEnded(Duration timeout) {
    WorkerPool running;
    WorkerPool pausedPool;
    synchronized (this) {
      running = pool;
      pausedPool = paused;
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    if (pausedPool != null) {
      if (!awaitEnded(pausedPool, timeout)) {
        return false;
      }
      synchronized (this) {
        if (paused == pausedPool) {
          paused = null;
        }
      }
    }
    return running == null
        || awaitEnded(running, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
  }

  private static boolean awaitEnded(WorkerPool running, Duration timeout) {
    try {
      return running.executor.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Number of reconciles running now. */
  public int activeReconciles() {
    return active.get();
  }

  /** Workers that should be running: {@code maxConcurrentReconciles} while started, else 0. */
  public int workersWanted() {
    WorkerPool running = pool;
    return running == null || running.closing ? 0 : definition.maxConcurrentReconciles();
  }

  /**
   * Workers whose loop is alive now, including those of paused workers whose reconcile has not
   * ended yet.
   */
  public int workersAlive() {
    WorkerPool running = pool;
    WorkerPool pausedPool = paused;
    return (running == null ? 0 : running.alive.get())
        + (pausedPool == null ? 0 : pausedPool.alive.get());
  }

  /**
   * One worker: takes keys until the queue shuts down or its pool closes. Nothing else ends it. An
   * interrupt that does not come from stopping (a reconciler that interrupted its own thread, or
   * threw {@code InterruptedException}, which the runtime re-asserts) is cleared, so that it can
   * neither end the loop nor fail the next reconcile. Should the loop die anyway, a replacement is
   * started.
   */
  private void workLoop(WorkerPool owner) {
    boolean died = true;
    try {
      while (!owner.closing) {
        Optional<ObjectKey> next = queue.take();
        if (next.isEmpty()) {
          if (queue.isShutDown() || owner.closing) {
            break;
          }
          if (Thread.interrupted()) {
            log.warn(
                "controller {}: a worker was interrupted while waiting for work; the"
                    + " interrupt is cleared and the worker carries on (only stopping the operator ends"
                    + " workers)",
                definition.name());
          }
          continue;
        }
        ObjectKey key = next.get();
        process(key);
        if (!owner.closing && !queue.isShutDown() && Thread.interrupted()) {
          log.warn(
              "controller {}: the reconcile of {} {} left its worker thread interrupted; the"
                  + " interrupt is cleared and the worker carries on",
              definition.name(),
              kind,
              key);
        }
      }
      died = false;
    } catch (Throwable t) {
      log.error(
          "controller {}: a worker loop of {} failed unexpectedly; starting a replacement",
          definition.name(),
          kind,
          t);
    } finally {
      owner.alive.decrementAndGet();
      if (died && !owner.closing && !queue.isShutDown()) {
        launch(owner);
      }
    }
  }

  /**
   * Processes one ready key on the calling thread, if there is one; for deterministic tests.
   *
   * @return false when no key was ready
   */
  public boolean processNext() {
    Optional<ObjectKey> next = queue.poll();
    next.ifPresent(this::process);
    return next.isPresent();
  }

  private void process(ObjectKey key) {
    MDC.put(MDC_CONTROLLER, definition.name());
    MDC.put(MDC_RESOURCE, kind + " " + key);
    active.incrementAndGet();
    ReconcileDeadlines.Running now = deadlines.started(key);
    try {
      reconcile(key);
    } catch (Throwable unexpected) {
      // Only the runtime's own bookkeeping can get here; keep the worker alive regardless.
      log.error(
          "controller {}: internal error while handling {} {}",
          definition.name(),
          kind,
          key,
          unexpected);
      queue.addRateLimited(key);
    } finally {
      active.decrementAndGet();
      deadlines.ended(now);
      queue.done(key);
      MDC.remove(MDC_RESOURCE);
      MDC.remove(MDC_CONTROLLER);
      listener.processed(definition.name(), key);
    }
  }

  /** How long one reconcile of this controller may run before it is reported as hung. */
  public Duration deadline() {
    return deadlines.deadline();
  }

  /** See {@link ReconcileDeadlines#check}; called by the operator's one watchdog. */
  public void checkDeadlines() {
    deadlines.check();
  }

  /** See {@link ReconcileDeadlines#hungReconciles}. */
  public List<String> hungReconciles() {
    return deadlines.hungReconciles();
  }

  /** How many reconciles run past their deadline now. */
  public int hungCount() {
    return deadlines.hungCount();
  }

  private void reconcile(ObjectKey key) {
    Optional<P> found =
        services.caches().of(definition.primaryType()).get(key.namespace(), key.name());
    if (found.isEmpty()) {
      queue.forget(key);
      goneOnServer.remove(key);
      ownerToVerify.remove(key);
      failures.forget(key);
      log.debug("{} {} no longer exists; nothing to reconcile", kind, key);
      return;
    }
    P primary = found.get();
    String version = primary.getMetadata().getResourceVersion();
    String gone = goneOnServer.get(key);
    if (gone != null) {
      if (gone.equals(version == null ? "" : version)) {
        // The cache still holds what the API server has deleted; the informer is being relisted.
        // Writing children for it now would only feed the garbage collector.
        queue.forget(key);
        log.debug("{} {} is deleted on the API server, not yet in the cache; skipped", kind, key);
        return;
      }
      goneOnServer.remove(key);
    }
    if (ownerToVerify.remove(key) && deletedOnServer(key, primary)) {
      // A child was deleted, and its owner, still cached, is gone: the garbage collector deleted
      // the child, and the cache missed the owner's deletion. Recreating the child would only
      // feed the collector; the informer is relisted instead.
      if (services.caches() instanceof SharedInformers informers) {
        informers.serverMovedPast(primary, "had deleted it (its child was garbage collected)");
      }
      markDeletedOnServer(key, version);
      return;
    }
    if (services.shard().isPresent() && services.shard().get().draining(primary)) {
      handOver(key, primary);
      return;
    }
    if (failures.onlyOwnConditionWriteSince(key, primary)) {
      queue.forget(key);
      return;
    }
    int retries = queue.failures(key);
    long start = services.ticker().nanoTime();
    Result result;
    ReconcileContext<P> context =
        new ReconcileContext<>(key, definition.name(), retries, primary, services);
    try {
      result = definition.reconciler().reconcile(primary, context);
      if (result == null) {
        throw new IllegalStateException(
            "reconciler of " + definition.name() + " returned null; return Result.done() instead");
      }
      if (pruner != null && result instanceof Result.Done && !context.primaryGone()) {
        // Inside the try: a refused or failed delete takes the path of a failed write.
        pruner.prune(primary, context);
      }
    } catch (Throwable failure) {
      if (failure instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      listener.failed(definition.name(), kind, key, failure);
      if (FencedClient.fenced(failure)) {
        // Not sent: this instance no longer holds the Lease. The next leader reconciles it.
        record(ReconcileOutcome.ERROR, start);
        queue.addRateLimited(key);
        log.info(
            "reconcile of {} {} stopped: a write was not sent because this instance's leader"
                + " Lease is not current ({})",
            kind,
            key,
            failure.getMessage());
        return;
      }
      Optional<Refusal> refused = queue.isShutDown() ? Optional.empty() : Refusal.of(failure);
      record(refused.isPresent() ? ReconcileOutcome.PERMANENT : ReconcileOutcome.ERROR, start);
      if (queue.isShutDown()) {
        log.warn("reconcile of {} {} ended by shutdown: {}", kind, key, failure.toString());
        return;
      }
      if (refused.isPresent()) {
        Duration recheck = failures.refused(key, primary, refused.get());
        queue.forget(key);
        queue.addAfter(key, recheck);
        return;
      }
      Duration delay = queue.addRateLimited(key);
      Optional<String> refusal =
          services
              .access()
              .refused(failure, kind + " " + key, definition.primaryType(), key.namespace());
      if (refusal.isPresent()) {
        log.error(
            "reconcile of {} {} failed (attempt {}): {}; retrying in {} ms",
            kind,
            key,
            retries + 1,
            refusal.get(),
            delay.toMillis());
      } else if (isAlreadyExists(failure)) {
        // Routine: an earlier attempt whose answer was lost, or another writer, created it first.
        log.info(
            "reconcile of {} {} found an object it meant to create already there (attempt"
                + " {}): {}; retrying in {} ms on a fresher read",
            kind,
            key,
            retries + 1,
            failure.getMessage(),
            delay.toMillis());
      } else if (ConflictRetry.isConflict(failure)) {
        // Routine: the write was based on a cached read the server had already moved past.
        log.info(
            "reconcile of {} {} hit a write conflict (attempt {}): {}; retrying in {} ms on a"
                + " fresher read",
            kind,
            key,
            retries + 1,
            failure.getMessage(),
            delay.toMillis());
      } else {
        log.error(
            "reconcile of {} {} failed (attempt {}); retrying in {} ms",
            kind,
            key,
            retries + 1,
            delay.toMillis(),
            failure);
      }
      return;
    }
    if (context.primaryGone()) {
      // Its status write found it deleted: the delete event is on its way, or the cache is stale.
      record(ReconcileOutcome.SUCCESS, start);
      markDeletedOnServer(key, version);
      return;
    }
    if (!(result instanceof Result.PermanentFailure)) {
      failures.recovered(key, primary);
    }
    if (result instanceof Result.Done) {
      queue.forget(key);
      definition.reconcileEvery().ifPresent(every -> queue.addAfter(key, every));
      record(ReconcileOutcome.SUCCESS, start);
      log.debug("reconciled {} {}", kind, key);
    } else if (result instanceof Result.Requeue) {
      Duration delay = queue.addRateLimited(key);
      record(ReconcileOutcome.REQUEUE, start);
      log.debug("reconciled {} {}; requeued in {} ms", kind, key, delay.toMillis());
    } else if (result instanceof Result.RequeueAfter after) {
      queue.forget(key);
      queue.addAfter(key, after.delay());
      record(ReconcileOutcome.REQUEUE_AFTER, start);
      log.debug("reconciled {} {}; again in {}", kind, key, after.delay());
    } else if (result instanceof Result.PermanentFailure failure) {
      queue.forget(key);
      record(ReconcileOutcome.PERMANENT, start);
      log.warn(
          "reconcile of {} {} failed permanently ({}): {}; not retried (its next change, or a"
              + " change of what it watches, reconciles it again)",
          kind,
          key,
          failure.reason(),
          failure.message());
      services.events().warning(primary, failure.reason(), failure.message());
      failures.permanent(key, primary, failure.reason(), failure.message());
    }
  }

  /**
   * Remembers that the API server no longer has {@code key} while the cache holds it at {@code
   * version}: it is not reconciled again until the cache catches up.
   */
  /**
   * The sharder asks this replica to hand the primary over. The worker holding its key is the only
   * one that may reconcile it, so once the labels are removed no reconcile of this replica touches
   * the object again: it leaves the label-selected cache, and any requeue finds nothing.
   */
  private void handOver(ObjectKey key, P primary) {
    try {
      services.shard().orElseThrow().handOver(services.client(), primary);
      queue.forget(key);
      failures.forget(key);
      log.info("{} {} handed over to another shard member", kind, key);
    } catch (RuntimeException e) {
      Duration delay = queue.addRateLimited(key);
      if (e instanceof io.fabric8.kubernetes.client.KubernetesClientException k
          && k.getCode() == 409) {
        // changed since it was cached (possibly handed over already): looked at again then
        log.debug(
            "{} {}: changed since it was cached; its hand-over looked at again in {} ms",
            kind,
            key,
            delay.toMillis());
        return;
      }
      log.warn(
          "{} {}: handing it over to another shard member failed, again in {} ms: {}",
          kind,
          key,
          delay.toMillis(),
          e.getMessage());
    }
  }

  private void markDeletedOnServer(ObjectKey key, String version) {
    goneOnServer.put(key, version == null ? "" : version);
    queue.forget(key);
    log.debug("{} {} is deleted on the API server, not yet in the cache; skipped", kind, key);
  }

  /**
   * Asks the API server whether {@code primary} is gone (or replaced by another object of its
   * name). An unanswered question counts as "still there": the reconcile goes ahead as before.
   */
  private boolean deletedOnServer(ObjectKey key, P primary) {
    if (services.client() == null) {
      return false;
    }
    try {
      HasMetadata live = services.client().resource(primary).get();
      return live == null
          || !Objects.equals(live.getMetadata().getUid(), primary.getMetadata().getUid());
    } catch (RuntimeException e) {
      log.debug("could not read {} {} from the API server: {}", kind, key, e.toString());
      return false;
    }
  }

  private void record(ReconcileOutcome outcome, long startNanos) {
    services
        .metrics()
        .reconciled(
            definition.name(),
            outcome,
            Duration.ofNanos(Math.max(0, services.ticker().nanoTime() - startNanos)));
  }

  /** A 409 whose reason is AlreadyExists: a create that lost to an earlier one. */
  private static boolean isAlreadyExists(Throwable error) {
    for (Throwable t = error; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof KubernetesClientException kce
          && kce.getCode() == 409
          && kce.getStatus() != null
          && "AlreadyExists".equals(kce.getStatus().getReason())) {
        return true;
      }
    }
    return false;
  }
}
