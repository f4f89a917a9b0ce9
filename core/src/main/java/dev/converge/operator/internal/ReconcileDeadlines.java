package dev.converge.operator.internal;

import dev.converge.builder.ControllerDefinition;
import dev.converge.metrics.ControllerMetrics;
import dev.converge.queue.internal.Ticker;
import dev.converge.reconcile.ObjectKey;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The running reconciles of one controller, watched for their deadline: a reconcile past it is
 * reported once (WARN with its worker's stack, metrics, health) and, if the controller asks, its
 * worker interrupted once; the report clears when it ends.
 */
final class ReconcileDeadlines {

  private static final Logger log = LoggerFactory.getLogger(ControllerRuntime.class);

  private final String controller;
  private final String kind;
  private final int workers;
  private final boolean interrupt;
  private final Ticker ticker;
  private final ControllerMetrics metrics;

  /** How long one reconcile may run before it is reported as hung. */
  private final Duration deadline;

  /** The reconciles running now, by key (the queue never hands one key to two workers). */
  private final Map<ObjectKey, Running> running = new ConcurrentHashMap<>();

  /** One running reconcile, as the deadline check sees it. */
  static final class Running {
    final ObjectKey key;
    final Thread thread;
    final long startNanos;
    private boolean reported; // guarded by this: past its deadline, and said so
    private boolean interrupted; // guarded by this: its thread was interrupted for it
    private boolean ended; // guarded by this

    Running(ObjectKey key, Thread thread, long startNanos) {
      this.key = key;
      this.thread = thread;
      this.startNanos = startNanos;
    }

    synchronized boolean hung() {
      return reported && !ended;
    }
  }

  /**
   * The stack of a worker whose reconcile ran past its deadline, taken from the worker, not from
   * where it is logged: logged as the cause so that log formats show it as a stack trace.
   */
  private static final class WorkerStack extends Throwable {
    private static final long serialVersionUID = 1L;

    WorkerStack(String thread, StackTraceElement[] stack) {
      super("stack of worker " + thread + " when the deadline passed");
      setStackTrace(stack);
    }
  }

  ReconcileDeadlines(
      ControllerDefinition<?> definition, Duration deadline, RuntimeServices services) {
    this.controller = definition.name();
    this.kind = HasMetadata.getKind(definition.primaryType());
    this.workers = definition.maxConcurrentReconciles();
    this.interrupt = definition.interruptPastDeadline();
    this.deadline = deadline;
    this.ticker = services.ticker();
    this.metrics = services.metrics();
  }

  /** Starts watching the reconcile of {@code key} on the calling thread. */
  Running started(ObjectKey key) {
    Running now = new Running(key, Thread.currentThread(), ticker.nanoTime());
    running.put(key, now);
    return now;
  }

  /** How long one reconcile of this controller may run before it is reported as hung. */
  Duration deadline() {
    return deadline;
  }

  /**
   * Reports each running reconcile that has passed its deadline and was not reported yet: once per
   * reconcile, with a WARN line naming the object, how long it has run and its worker's stack, and
   * a count in the metrics; with {@code interruptPastDeadline}, its worker is interrupted once.
   * Called by the operator's one watchdog; reads time from the runtime's ticker.
   */
  void check() {
    long now = ticker.nanoTime();
    for (Running reconcile : running.values()) {
      long ran = now - reconcile.startNanos;
      if (ran < deadline.toNanos()) {
        continue;
      }
      synchronized (reconcile) {
        if (reconcile.reported || reconcile.ended) {
          continue;
        }
        reconcile.reported = true;
      }
      reportHung(reconcile, ran);
    }
  }

  private void reportHung(Running reconcile, long ranNanos) {
    metrics.reconcileDeadlineExceeded(controller);
    WorkerStack stack =
        new WorkerStack(reconcile.thread.getName(), reconcile.thread.getStackTrace());
    boolean endedMeanwhile;
    synchronized (reconcile) {
      endedMeanwhile = reconcile.ended;
    }
    MDC.put(ControllerRuntime.MDC_CONTROLLER, controller);
    MDC.put(ControllerRuntime.MDC_RESOURCE, kind + " " + reconcile.key);
    try {
      log.warn(
          "controller {}: the reconcile of {} {} has run for {}, past its deadline of {}; {}{}."
              + " Its worker {} takes no other key meanwhile ({} worker(s) in all); its stack"
              + " follows",
          controller,
          kind,
          reconcile.key,
          seconds(ranNanos),
          seconds(deadline.toNanos()),
          interrupt
              ? "interrupting it"
              : "it is left running (ControllerBuilder.interruptPastDeadline() would interrupt"
                  + " it)",
          endedMeanwhile
              ? " (it ended while its stack was taken: the stack may show the worker's next task)"
              : "",
          reconcile.thread.getName(),
          workers,
          stack);
    } finally {
      MDC.remove(ControllerRuntime.MDC_RESOURCE);
      MDC.remove(ControllerRuntime.MDC_CONTROLLER);
    }
    if (interrupt) {
      synchronized (reconcile) {
        if (!reconcile.ended) {
          reconcile.interrupted = true;
          reconcile.thread.interrupt();
        }
      }
    }
  }

  /**
   * Ends the watch over one reconcile: an interrupt the deadline sent and the reconcile did not
   * consume is cleared, so that it reaches neither the queue nor the next reconcile; a reconcile
   * that was reported as hung is reported ended, with its total time.
   */
  void ended(Running reconcile) {
    running.remove(reconcile.key, reconcile);
    boolean reported;
    boolean interrupted;
    synchronized (reconcile) {
      reconcile.ended = true;
      reported = reconcile.reported;
      interrupted = reconcile.interrupted;
    }
    if (interrupted) {
      Thread.interrupted();
    }
    if (reported) {
      log.info(
          "controller {}: the reconcile of {} {} that ran past its deadline of {} ended after {};"
              + " no longer reported as hung",
          controller,
          kind,
          reconcile.key,
          seconds(deadline.toNanos()),
          seconds(ticker.nanoTime() - reconcile.startNanos));
    }
  }

  /**
   * The reconciles running past their deadline now, one sentence each naming the controller, the
   * object ({@code Kind namespace/name}), how long it has run and its worker: for health.
   */
  List<String> hungReconciles() {
    long now = ticker.nanoTime();
    List<String> hung = new ArrayList<>();
    for (Running reconcile : running.values()) {
      if (reconcile.hung()) {
        hung.add(
            "controller "
                + controller
                + ": the reconcile of "
                + kind
                + " "
                + reconcile.key
                + " has run for "
                + seconds(now - reconcile.startNanos)
                + ", past its deadline of "
                + seconds(deadline.toNanos())
                + ", on worker "
                + reconcile.thread.getName());
      }
    }
    if (!hung.isEmpty() && hung.size() >= workers) {
      hung.add(
          "controller "
              + controller
              + ": all "
              + workers
              + " worker(s) are held by hung reconciles; no other "
              + kind
              + " is reconciled until one ends");
    }
    return hung;
  }

  /** How many reconciles run past their deadline now. */
  int hungCount() {
    int hung = 0;
    for (Running reconcile : running.values()) {
      if (reconcile.hung()) {
        hung++;
      }
    }
    return hung;
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
  }
}
