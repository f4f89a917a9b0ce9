package dev.converge.operator.internal;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** The one background thread of an operator's periodic task, which never keeps the JVM alive. */
final class DaemonScheduler {

  private DaemonScheduler() {}

  /** A single-thread scheduler whose daemon thread is named {@code threadName}. */
  static ScheduledExecutorService named(String threadName) {
    return Executors.newSingleThreadScheduledExecutor(
        r -> {
          Thread t = new Thread(r, threadName);
          t.setDaemon(true);
          return t;
        });
  }
}
