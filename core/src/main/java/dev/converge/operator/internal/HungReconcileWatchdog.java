package dev.converge.operator.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the reconciles of every controller of one operator for those that run past their
 * deadline: one thread for the whole operator, however many reconciles run, which asks each
 * controller to check its running reconciles a few times per deadline (at most once a second). Each
 * controller reads elapsed time from the runtime's ticker, so tests with a manual ticker decide
 * when a deadline passes.
 */
public final class HungReconcileWatchdog {

  private static final Logger log = LoggerFactory.getLogger(HungReconcileWatchdog.class);

  /** The longest pause between two checks: a deadline is reported at most this late. */
  static final Duration MAX_PERIOD = Duration.ofSeconds(1);

  /** The shortest pause between two checks, for very short deadlines in tests. */
  static final Duration MIN_PERIOD = Duration.ofMillis(20);

  private final String operatorName;
  private final List<ControllerRuntime<?>> controllers;
  private ScheduledExecutorService scheduler;
  private ScheduledFuture<?> checks;
  private boolean stopped;

  public HungReconcileWatchdog(String operatorName, List<ControllerRuntime<?>> controllers) {
    this.operatorName = operatorName;
    this.controllers = List.copyOf(controllers);
  }

  /** The pause between two checks: a quarter of the shortest deadline, within 20 ms and 1 s. */
  Duration period() {
    Duration period = MAX_PERIOD;
    for (ControllerRuntime<?> controller : controllers) {
      Duration quarter = controller.deadline().dividedBy(4);
      if (quarter.compareTo(period) < 0) {
        period = quarter;
      }
    }
    return period.compareTo(MIN_PERIOD) < 0 ? MIN_PERIOD : period;
  }

  /** Starts checking; idempotent, and a no-op once stopped. */
  public synchronized void start() {
    if (scheduler != null || stopped) {
      return;
    }
    scheduler = DaemonScheduler.named("converge-" + operatorName + "-watchdog");
    long period = period().toMillis();
    checks = scheduler.scheduleWithFixedDelay(this::check, period, period, TimeUnit.MILLISECONDS);
  }

  /** Stops checking. */
  public synchronized void stop() {
    stopped = true;
    if (scheduler != null) {
      checks.cancel(false);
      scheduler.shutdownNow();
    }
  }

  /**
   * Checks every controller once now. A failure is logged and the next check runs regardless: a
   * scheduled task that throws is never run again.
   */
  public void check() {
    for (ControllerRuntime<?> controller : controllers) {
      try {
        controller.checkDeadlines();
      } catch (RuntimeException e) {
        log.error(
            "operator {}: checking the reconcile deadlines of controller {} failed",
            operatorName,
            controller.name(),
            e);
      }
    }
  }

  /** One sentence per reconcile running past its deadline, naming its controller and object. */
  public List<String> problems() {
    List<String> problems = new ArrayList<>();
    for (ControllerRuntime<?> controller : controllers) {
      problems.addAll(controller.hungReconciles());
    }
    return problems;
  }
}
