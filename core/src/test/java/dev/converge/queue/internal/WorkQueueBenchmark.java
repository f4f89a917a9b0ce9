package dev.converge.queue.internal;

import dev.converge.metrics.ControllerMetrics.QueueListener;
import dev.converge.queue.ExponentialBackoff;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Prints the throughput of the work queue: producers add random keys while workers take and finish
 * them. Not a test; run with {@code java -cp core/target/classes:core/target/test-classes
 * dev.converge.queue.internal.WorkQueueBenchmark}.
 */
public final class WorkQueueBenchmark {

  private WorkQueueBenchmark() {}

  public static void main(String[] args) throws Exception {
    int events = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
    for (int keys : new int[] {10, 1_000, 100_000}) {
      for (int workers : new int[] {1, 8}) {
        run(events, keys, workers);
      }
    }
  }

  private static void run(int events, int keys, int workers) throws InterruptedException {
    WorkQueue<Integer> queue =
        new WorkQueue<>(Ticker.system(), ExponentialBackoff.DEFAULT, QueueListener.none());
    AtomicLong processed = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      Thread t =
          new Thread(
              () -> {
                for (Optional<Integer> next = queue.take(); next.isPresent(); next = queue.take()) {
                  processed.incrementAndGet();
                  queue.done(next.get());
                }
              });
      t.start();
      threads.add(t);
    }
    Random random = new Random(7);
    long start = System.nanoTime();
    for (int i = 0; i < events; i++) {
      queue.add(random.nextInt(keys));
    }
    queue.drainAndShutDown();
    for (Thread t : threads) {
      t.join();
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    System.out.printf(
        "keys=%7d workers=%d: %,d adds in %d ms (%,.0f adds/s), %,d processed"
            + " (%.1f%% de-duplicated)%n",
        keys,
        workers,
        events,
        took.toMillis(),
        events / (took.toNanos() / 1e9),
        processed.get(),
        100.0 * (events - processed.get()) / events);
  }
}
