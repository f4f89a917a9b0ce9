package dev.converge.metrics;

import dev.converge.metrics.ControllerMetrics.QueueListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * Records controller metrics in a Micrometer registry. Every meter carries the tag {@code
 * controller}:
 *
 * <ul>
 *   <li>{@code converge.reconcile} (timer): count and duration of reconciles, tag {@code result}:
 *       success, error, requeue, requeue-after, permanent;
 *   <li>{@code converge.queue.depth} (gauge): keys ready for a worker;
 *   <li>{@code converge.queue.wait} (timer): how long keys waited between ready and taken;
 *   <li>{@code converge.queue.retries} (counter): backoff retries scheduled;
 *   <li>{@code converge.workers.active} (gauge): reconciles running now;
 *   <li>{@code converge.workers.alive} (gauge): worker loops alive (below {@code
 *       maxConcurrentReconciles} only while one is being replaced);
 *   <li>{@code converge.reconcile.hung} (gauge): reconciles running past their deadline now;
 *   <li>{@code converge.reconcile.deadline.exceeded} (counter): reconciles that ran past their
 *       deadline, counted once each when it passed.
 * </ul>
 *
 * Per kind (tag {@code kind}):
 *
 * <ul>
 *   <li>{@code converge.objects.rejected} (counter, tag {@code place}: index, watch): objects a
 *       user function failed on, left out of that index or mapping;
 *   <li>{@code converge.informer.errors} (counter, tag {@code reason}: forbidden, not-found, gone,
 *       unreadable, other): failed lists and watches.
 * </ul>
 *
 * Per resource and verb (tags {@code resource}, e.g. {@code deployments.apps}, and {@code verb}):
 *
 * <ul>
 *   <li>{@code converge.access.denied} (gauge, tag {@code namespace}, {@code *} for cluster-wide):
 *       1 while RBAC does not allow what the operator needs, 0 otherwise;
 *   <li>{@code converge.access.refused} (counter): requests refused with 403 Forbidden.
 * </ul>
 *
 * <p>{@code converge.reconcile.refused} (counter, tags {@code controller}, {@code kind}: the
 * refused object's kind, {@code reason}: invalid, admission-denied, quota-exceeded,
 * namespace-terminating, pod-security, forbidden): reconciles ended by a write the API server
 * refused as such, not retried until something changes.
 *
 * <p>{@code converge.children.pruned} (counter, tags {@code controller}, {@code kind}: the deleted
 * object's kind): owned objects a pruning controller deleted because their primary no longer
 * applied them.
 *
 * <p>{@code converge.events.dropped} (counter, tag {@code reason}: rate-limited, queue-full,
 * stopped): Events the recorder did not write.
 */
public final class MicrometerControllerMetrics implements ControllerMetrics {

  /** Timer of reconciles, tags {@code controller} and {@code result}. */
  public static final String RECONCILE = "converge.reconcile";

  /** Gauge of the keys ready for a worker, tag {@code controller}. */
  public static final String QUEUE_DEPTH = "converge.queue.depth";

  /** Timer of the time keys waited between ready and taken, tag {@code controller}. */
  public static final String QUEUE_WAIT = "converge.queue.wait";

  /** Counter of the retries scheduled with backoff, tag {@code controller}. */
  public static final String QUEUE_RETRIES = "converge.queue.retries";

  /** Gauge of the reconciles running now, tag {@code controller}. */
  public static final String ACTIVE_WORKERS = "converge.workers.active";

  /** Gauge of the worker loops alive, tag {@code controller}. */
  public static final String ALIVE_WORKERS = "converge.workers.alive";

  /** Gauge of the reconciles running past their deadline now, tag {@code controller}. */
  public static final String RECONCILES_HUNG = "converge.reconcile.hung";

  /** Writes not sent because this instance's hold on the leader Lease was not current. */
  public static final String WRITES_FENCED = "converge.writes.fenced";

  /** Counter of the reconciles that ran past their deadline, tag {@code controller}. */
  public static final String DEADLINE_EXCEEDED = "converge.reconcile.deadline.exceeded";

  /** Counter of the objects a user function failed on, tags {@code kind} and {@code place}. */
  public static final String OBJECTS_REJECTED = "converge.objects.rejected";

  /** Counter of the failed lists and watches, tags {@code kind} and {@code reason}. */
  public static final String INFORMER_ERRORS = "converge.informer.errors";

  /**
   * Gauge, 1 while RBAC does not allow what the operator needs, tags {@code resource}, {@code verb}
   * and {@code namespace}.
   */
  public static final String ACCESS_DENIED = "converge.access.denied";

  /** Counter of the requests refused with 403 Forbidden, tags {@code resource} and {@code verb}. */
  public static final String ACCESS_REFUSED = "converge.access.refused";

  /** Counter of the Events the recorder did not write, tag {@code reason}. */
  public static final String EVENTS_DROPPED = "converge.events.dropped";

  /**
   * Counter of the reconciles ended by a write the API server refused, tags {@code controller},
   * {@code kind} and {@code reason}.
   */
  public static final String REFUSED = "converge.reconcile.refused";

  /**
   * Counter of the owned objects deleted because their primary no longer applied them, tags {@code
   * controller} and {@code kind}.
   */
  public static final String PRUNED = "converge.children.pruned";

  private final MeterRegistry registry;

  /**
   * Metrics recorded in {@code registry}; each meter is registered when the runtime first reports
   * it, tagged with its controller (or kind, or resource).
   *
   * @param registry where the meters go, e.g. the operator's Prometheus registry
   */
  public MicrometerControllerMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  @Override
  public void reconciled(String controller, ReconcileOutcome outcome, Duration duration) {
    Timer.builder(RECONCILE)
        .description("Reconciles by result, with their duration")
        .tag("controller", controller)
        .tag("result", outcome.tag())
        .register(registry)
        .record(duration);
  }

  @Override
  public QueueListener queue(String controller) {
    AtomicInteger depth = new AtomicInteger();
    Gauge.builder(QUEUE_DEPTH, depth, AtomicInteger::get)
        .description("Keys ready for a worker")
        .tag("controller", controller)
        .register(registry);
    Timer wait =
        Timer.builder(QUEUE_WAIT)
            .description("Time a key waited in the queue before a worker took it")
            .tag("controller", controller)
            .register(registry);
    Counter retries =
        Counter.builder(QUEUE_RETRIES)
            .description("Retries scheduled with backoff")
            .tag("controller", controller)
            .register(registry);
    return new QueueListener() {
      @Override
      public void added(int newDepth) {
        depth.set(newDepth);
      }

      @Override
      public void taken(long waitNanos, int newDepth) {
        depth.set(newDepth);
        wait.record(Duration.ofNanos(waitNanos));
      }

      @Override
      public void retried() {
        retries.increment();
      }
    };
  }

  @Override
  public void activeWorkers(String controller, IntSupplier active) {
    Gauge.builder(ACTIVE_WORKERS, active, s -> s.getAsInt())
        .description("Reconciles running now")
        .tag("controller", controller)
        .strongReference(true)
        .register(registry);
  }

  @Override
  public void workersAlive(String controller, IntSupplier alive) {
    Gauge.builder(ALIVE_WORKERS, alive, s -> s.getAsInt())
        .description("Worker loops alive")
        .tag("controller", controller)
        .strongReference(true)
        .register(registry);
  }

  @Override
  public void writesFenced(LongSupplier fenced) {
    FunctionCounter.builder(WRITES_FENCED, fenced, f -> f.getAsLong())
        .description("Writes not sent because the leader Lease was not current")
        .register(registry);
  }

  @Override
  public void reconcilesHung(String controller, IntSupplier hung) {
    Gauge.builder(RECONCILES_HUNG, hung, IntSupplier::getAsInt)
        .description("Reconciles running past their deadline now")
        .tag("controller", controller)
        .strongReference(true)
        .register(registry);
    deadlineExceeded(controller); // at 0 from the start, so that an alert sees it rise
  }

  @Override
  public void reconcileDeadlineExceeded(String controller) {
    deadlineExceeded(controller).increment();
  }

  private Counter deadlineExceeded(String controller) {
    return Counter.builder(DEADLINE_EXCEEDED)
        .description("Reconciles that ran past their deadline")
        .tag("controller", controller)
        .register(registry);
  }

  @Override
  public void objectRejected(String kind, String place) {
    Counter.builder(OBJECTS_REJECTED)
        .description("Objects a user function failed on, left out of that index or mapping")
        .tag("kind", kind)
        .tag("place", place)
        .register(registry)
        .increment();
  }

  @Override
  public void informerError(String kind, String reason) {
    Counter.builder(INFORMER_ERRORS)
        .description("Failed lists and watches")
        .tag("kind", kind)
        .tag("reason", reason)
        .register(registry)
        .increment();
  }

  @Override
  public void accessDenied(String resource, String verb, String namespace, IntSupplier denied) {
    Gauge.builder(ACCESS_DENIED, denied, IntSupplier::getAsInt)
        .description("1 while RBAC does not allow what the operator needs")
        .strongReference(true) // the supplier lives only here
        .tag("resource", resource)
        .tag("verb", verb)
        .tag("namespace", namespace.isEmpty() ? "*" : namespace)
        .register(registry);
  }

  @Override
  public void accessRefused(String resource, String verb) {
    Counter.builder(ACCESS_REFUSED)
        .description("Requests refused with 403 Forbidden")
        .tag("resource", resource)
        .tag("verb", verb)
        .register(registry)
        .increment();
  }

  @Override
  public void refused(String controller, String kind, String reason) {
    Counter.builder(REFUSED)
        .description("Reconciles ended by a write the API server refused; not retried")
        .tag("controller", controller)
        .tag("kind", kind)
        .tag("reason", reason)
        .register(registry)
        .increment();
  }

  @Override
  public void pruned(String controller, String kind) {
    Counter.builder(PRUNED)
        .description("Owned objects deleted because their primary no longer applied them")
        .tag("controller", controller)
        .tag("kind", kind)
        .register(registry)
        .increment();
  }

  @Override
  public void eventDropped(String reason) {
    Counter.builder(EVENTS_DROPPED)
        .description("Events not written: rate-limited per object, queue full, or stopped")
        .tag("reason", reason)
        .register(registry)
        .increment();
  }
}
