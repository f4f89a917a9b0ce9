package dev.converge.operator.internal;

import dev.converge.builder.ControllerDefinition;
import dev.converge.builder.IndexDefinition;
import dev.converge.builder.WatchDefinition;
import dev.converge.metrics.ReconcileOutcome;
import dev.converge.queue.WorkQueue;
import dev.converge.reconcile.ObjectKey;
import dev.converge.reconcile.Result;
import dev.converge.retry.ConflictRetry;
import dev.converge.source.ResourceEvent;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
  /** Keys that failed permanently, with the generation (or resourceVersion) they failed at. */
  private final Map<ObjectKey, String> permanentFailures = new ConcurrentHashMap<>();
  private ExecutorService workers;

  public ControllerRuntime(ControllerDefinition<P> definition, RuntimeServices services) {
    this.definition = definition;
    this.services = services;
    this.kind = HasMetadata.getKind(definition.primaryType());
    this.queue = new WorkQueue<>(services.ticker(), definition.backoff(),
        services.metrics().queue(definition.name()));
    services.metrics().activeWorkers(definition.name(), active::get);
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

  private <T extends HasMetadata> void registerWatch(SharedInformers informers, WatchDefinition<T> watch) {
    String watchedKind = HasMetadata.getKind(watch.type());
    informers.addHandler(watch.type(), new ResourceEventHandler<T>() {
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
        dispatch(watch, watchedKind, new ResourceEvent.Deleted<>(obj, deletedFinalStateUnknown));
      }
    });
  }

  /** Routes one event through the watch's predicate and handler into the queue. */
  public <T extends HasMetadata> void dispatch(WatchDefinition<T> watch, ResourceEvent<T> event) {
    dispatch(watch, HasMetadata.getKind(watch.type()), event);
  }

  private <T extends HasMetadata> void dispatch(
      WatchDefinition<T> watch, String watchedKind, ResourceEvent<T> event) {
    try {
      if (!watch.predicate().test(event)) {
        return;
      }
      Collection<ObjectKey> keys = watch.handler().keysFor(event, services.caches());
      for (ObjectKey key : keys) {
        queue.add(key);
      }
    } catch (RuntimeException e) {
      log.error("controller {}: dropped a {} event of {} {}: predicate or handler {} threw",
          definition.name(), event.getClass().getSimpleName(), watchedKind,
          ObjectKey.of(event.object()), watch.handler(), e);
    }
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

  /** Starts the workers; reconciles begin for whatever is queued. */
  public synchronized void startWorkers() {
    if (workers != null || queue.isShutDown()) {
      return; // already running, or stop() came first: starting now would leak the pool
    }
    AtomicInteger n = new AtomicInteger();
    workers = Executors.newFixedThreadPool(definition.maxConcurrentReconciles(), r -> {
      Thread t = new Thread(r, "converge-" + definition.name() + "-worker-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    for (int i = 0; i < definition.maxConcurrentReconciles(); i++) {
      workers.execute(this::workLoop);
    }
    log.info("controller {}: started {} worker(s) for {}", definition.name(),
        definition.maxConcurrentReconciles(), kind);
  }

  /**
   * Stops taking work and waits up to {@code timeout} for running reconciles to finish.
   *
   * @return true when no reconcile was left running
   */
  public boolean stop(Duration timeout) {
    queue.shutDown();
    ExecutorService running;
    synchronized (this) {
      running = workers;
    }
    if (running == null) {
      return true;
    }
    running.shutdown();
    try {
      if (running.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        log.info("controller {}: stopped", definition.name());
        return true;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    log.warn("controller {}: {} reconcile(s) still running after {}; interrupting them",
        definition.name(), active.get(), timeout);
    running.shutdownNow();
    return false;
  }

  /** Number of reconciles running now. */
  public int activeReconciles() {
    return active.get();
  }

  private void workLoop() {
    while (true) {
      Optional<ObjectKey> next = queue.take();
      if (next.isEmpty()) {
        return;
      }
      process(next.get());
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
    try {
      reconcile(key);
    } catch (Throwable unexpected) {
      // Only the runtime's own bookkeeping can get here; keep the worker alive regardless.
      log.error("controller {}: internal error while handling {} {}", definition.name(), kind,
          key, unexpected);
      queue.addRateLimited(key);
    } finally {
      active.decrementAndGet();
      queue.done(key);
      MDC.remove(MDC_RESOURCE);
      MDC.remove(MDC_CONTROLLER);
    }
  }

  private void reconcile(ObjectKey key) {
    Optional<P> found =
        services.caches().of(definition.primaryType()).get(key.namespace(), key.name());
    if (found.isEmpty()) {
      queue.forget(key);
      permanentFailures.remove(key);
      log.debug("{} {} no longer exists; nothing to reconcile", kind, key);
      return;
    }
    P primary = found.get();
    String version = versionOf(primary);
    String failedAt = permanentFailures.get(key);
    if (failedAt != null) {
      if (failedAt.equals(version)) {
        log.debug("{} {} failed permanently at {}; waiting for a spec change", kind, key, failedAt);
        return;
      }
      permanentFailures.remove(key);
    }
    int retries = queue.failures(key);
    long start = services.ticker().nanoTime();
    Result result;
    try {
      result = definition.reconciler().reconcile(primary,
          new ReconcileContext<>(key, definition.name(), retries, primary, services));
      if (result == null) {
        throw new IllegalStateException("reconciler of " + definition.name()
            + " returned null; return Result.done() instead");
      }
    } catch (Throwable failure) {
      if (failure instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      record(ReconcileOutcome.ERROR, start);
      if (queue.isShutDown()) {
        log.warn("reconcile of {} {} ended by shutdown: {}", kind, key, failure.toString());
        return;
      }
      Duration delay = queue.addRateLimited(key);
      if (ConflictRetry.isConflict(failure)) {
        // Routine: the write was based on a cached read the server had already moved past.
        log.info("reconcile of {} {} hit a write conflict (attempt {}): {}; retrying in {} ms on a"
            + " fresher read", kind, key, retries + 1, failure.getMessage(), delay.toMillis());
      } else {
        log.error("reconcile of {} {} failed (attempt {}); retrying in {} ms", kind, key, retries + 1,
            delay.toMillis(), failure);
      }
      return;
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
      permanentFailures.put(key, version);
      record(ReconcileOutcome.PERMANENT, start);
      log.warn("reconcile of {} {} failed permanently ({}): {}; not retried until its spec changes",
          kind, key, failure.reason(), failure.message());
      services.events().warning(primary, failure.reason(), failure.message());
    }
  }

  private void record(ReconcileOutcome outcome, long startNanos) {
    services.metrics().reconciled(definition.name(), outcome,
        Duration.ofNanos(Math.max(0, services.ticker().nanoTime() - startNanos)));
  }

  /**
   * What a permanent failure is pinned to: the object's UID (a deleted and re-created object is a
   * new one), its generation (a spec change deserves another try) and whether it is being deleted
   * (finalizer cleanup must run even for an object whose spec failed permanently).
   */
  private static String versionOf(HasMetadata primary) {
    Long generation = primary.getMetadata().getGeneration();
    return "uid " + primary.getMetadata().getUid() + (generation != null
        ? " generation " + generation
        : " resourceVersion " + primary.getMetadata().getResourceVersion())
        + (primary.getMetadata().getDeletionTimestamp() != null ? " deleting" : "");
  }
}
