package dev.converge.queue.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.metrics.ControllerMetrics.QueueListener;
import dev.converge.queue.ExponentialBackoff;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WorkQueueTest {

  private final ManualTicker ticker = new ManualTicker();
  private final WorkQueue<String> queue =
      new WorkQueue<>(ticker, ExponentialBackoff.DEFAULT, QueueListener.none());

  @Test
  void deduplicatesKeysWaitingToBeProcessed() {
    queue.add("a");
    queue.add("b");
    queue.add("a");
    queue.add("a");

    assertThat(queue.depth()).isEqualTo(2);
    assertThat(drainReady()).containsExactly("a", "b");
  }

  @Test
  void aKeyInFlightIsNotHandedOutAgainUntilDone() {
    queue.add("a");
    assertThat(queue.poll()).contains("a");

    queue.add("a");
    assertThat(queue.poll()).as("a is being processed").isEmpty();

    queue.done("a");
    assertThat(queue.poll()).contains("a");
  }

  @Test
  void eventsDuringProcessingLeadToExactlyOneMoreRound() {
    queue.add("a");
    String taken = queue.poll().orElseThrow();
    queue.add("a");
    queue.add("a");
    queue.add("a");
    queue.done(taken);

    assertThat(queue.poll()).contains("a");
    queue.done("a");
    assertThat(queue.poll())
        .as("three events while processing give one more round, not three")
        .isEmpty();
  }

  @Test
  void noEventDuringProcessingMeansNoExtraRound() {
    queue.add("a");
    queue.done(queue.poll().orElseThrow());
    assertThat(queue.poll()).isEmpty();
  }

  @Test
  void delayedAddBecomesReadyWhenTheTickerPassesTheDelay() {
    queue.addAfter("a", Duration.ofSeconds(10));
    assertThat(queue.poll()).isEmpty();

    ticker.advance(Duration.ofMillis(9_999));
    assertThat(queue.poll()).isEmpty();

    ticker.advance(Duration.ofMillis(1));
    assertThat(queue.poll()).contains("a");
  }

  @Test
  void theEarliestPendingDelayWins() {
    queue.addAfter("a", Duration.ofSeconds(10));
    queue.addAfter("a", Duration.ofSeconds(3));
    queue.addAfter("a", Duration.ofSeconds(30));
    assertThat(queue.pendingDelay("a")).contains(Duration.ofSeconds(3));

    ticker.advance(Duration.ofSeconds(3));
    assertThat(queue.poll()).contains("a");
    queue.done("a");
    ticker.advance(Duration.ofSeconds(60));
    assertThat(queue.poll()).as("the later delays were folded into the earliest").isEmpty();
  }

  @Test
  void rateLimitedAddsBackOffExponentiallyPerKey() {
    List<Duration> delays = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      delays.add(queue.addRateLimited("a"));
    }
    assertThat(delays)
        .containsExactly(
            Duration.ofMillis(5),
            Duration.ofMillis(10),
            Duration.ofMillis(20),
            Duration.ofMillis(40),
            Duration.ofMillis(80),
            Duration.ofMillis(160));
    assertThat(queue.failures("a")).isEqualTo(6);
    assertThat(queue.addRateLimited("b"))
        .as("another key has its own backoff")
        .isEqualTo(Duration.ofMillis(5));
  }

  @Test
  void retryIsDeliveredOnlyAfterItsBackoff() {
    queue.addRateLimited("a"); // 5 ms
    queue.addRateLimited("a"); // 10 ms, but the 5 ms entry is earlier and stands
    ticker.advance(Duration.ofMillis(4));
    assertThat(queue.poll()).isEmpty();
    ticker.advance(Duration.ofMillis(1));
    assertThat(queue.poll()).contains("a");
  }

  @Test
  void forgetResetsTheBackoff() {
    queue.addRateLimited("a");
    queue.addRateLimited("a");
    queue.addRateLimited("a");
    queue.forget("a");
    assertThat(queue.failures("a")).isZero();
    assertThat(queue.addRateLimited("a")).isEqualTo(Duration.ofMillis(5));
  }

  @Test
  void takeWakesUpWhenTheManualTickerPassesADelay() throws Exception {
    queue.addAfter("a", Duration.ofMinutes(5));
    AtomicReference<Optional<String>> taken = new AtomicReference<>();
    Thread worker = new Thread(() -> taken.set(queue.take()));
    worker.start();

    ticker.advance(Duration.ofMinutes(5));
    worker.join(10_000);

    assertThat(worker.isAlive()).isFalse();
    assertThat(taken.get()).contains("a");
  }

  @Test
  void shutDownReleasesBlockedWorkersAndIgnoresNewKeys() throws Exception {
    AtomicReference<Optional<String>> taken = new AtomicReference<>();
    Thread worker = new Thread(() -> taken.set(queue.take()));
    worker.start();

    queue.shutDown();
    worker.join(10_000);

    assertThat(worker.isAlive()).isFalse();
    assertThat(taken.get()).isEmpty();
    queue.add("late");
    assertThat(queue.depth()).isZero();
  }

  @Test
  void listenerSeesDepthWaitAndRetries() {
    AtomicInteger depth = new AtomicInteger();
    AtomicLong waited = new AtomicLong();
    AtomicInteger retries = new AtomicInteger();
    WorkQueue<String> observed =
        new WorkQueue<>(
            ticker,
            ExponentialBackoff.DEFAULT,
            new QueueListener() {
              @Override
              public void added(int d) {
                depth.set(d);
              }

              @Override
              public void taken(long waitNanos, int d) {
                depth.set(d);
                waited.set(waitNanos);
              }

              @Override
              public void retried() {
                retries.incrementAndGet();
              }
            });
    observed.add("a");
    observed.add("b");
    assertThat(depth.get()).isEqualTo(2);
    ticker.advance(Duration.ofMillis(250));
    observed.poll();
    assertThat(depth.get()).isEqualTo(1);
    assertThat(waited.get()).isEqualTo(Duration.ofMillis(250).toNanos());
    observed.addRateLimited("a");
    assertThat(retries.get()).isEqualTo(1);
  }

  /**
   * Eight workers, 10,000 random events on 6 keys (plain adds, delayed adds, and re-adds from the
   * workers themselves). Whatever the interleaving: no key is ever held by two workers, and every
   * key is processed after its last event.
   */
  @Test
  @SuppressWarnings("ThreadPriorityCheck") // yields on purpose, to interleave workers and producer
  void sameKeyIsNeverProcessedConcurrentlyUnderEightWorkersAndTenThousandEvents() throws Exception {
    int workers = 8;
    int events = 10_000;
    int keys = 6;
    Set<String> inProcess = ConcurrentHashMap.newKeySet();
    AtomicInteger violations = new AtomicInteger();
    AtomicInteger processed = new AtomicInteger();
    AtomicLong clock = new AtomicLong();
    Map<String, Long> lastEvent = new HashMap<>();
    Map<String, Long> lastStart = new ConcurrentHashMap<>();

    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      long seed = w;
      Thread t =
          new Thread(
              () -> {
                Random random = new Random(seed);
                while (true) {
                  Optional<String> next = queue.take();
                  if (next.isEmpty()) {
                    return;
                  }
                  String key = next.get();
                  if (!inProcess.add(key)) {
                    violations.incrementAndGet();
                  }
                  lastStart.merge(key, clock.incrementAndGet(), Math::max);
                  processed.incrementAndGet();
                  // Hold the key for a random while, sometimes giving up the CPU, so that other
                  // workers and the producer run while it is in flight.
                  for (int spin = random.nextInt(5_000); spin > 0; spin--) {
                    Thread.onSpinWait();
                  }
                  if (random.nextBoolean()) {
                    Thread.yield();
                  }
                  inProcess.remove(key);
                  queue.done(key);
                }
              },
              "worker-" + w);
      t.start();
      threads.add(t);
    }

    Random random = new Random(42);
    for (int i = 0; i < events; i++) {
      String key = "key-" + random.nextInt(keys);
      int kind = random.nextInt(10);
      if (kind < 8) {
        lastEvent.merge(key, clock.incrementAndGet(), Math::max);
        queue.add(key);
      } else if (kind == 8) {
        queue.addAfter(key, Duration.ofMillis(1 + random.nextInt(50)));
      } else {
        ticker.advance(Duration.ofMillis(random.nextInt(20)));
      }
    }
    ticker.advance(Duration.ofHours(1)); // every delayed add is due now
    queue.drainAndShutDown();
    for (Thread t : threads) {
      t.join(60_000);
      assertThat(t.isAlive()).as(t.getName() + " finished").isFalse();
    }

    assertThat(violations.get()).as("a key held by two workers at once").isZero();
    assertThat(processed.get()).isPositive().isLessThanOrEqualTo(events);
    lastEvent.forEach(
        (key, at) ->
            assertThat(lastStart.get(key))
                .as("%s was processed after its last event", key)
                .isGreaterThan(at));
  }

  private List<String> drainReady() {
    List<String> out = new ArrayList<>();
    for (Optional<String> next = queue.poll(); next.isPresent(); next = queue.poll()) {
      out.add(next.get());
      queue.done(next.get());
    }
    return out;
  }
}
