package dev.converge.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.metrics.ControllerMetrics.QueueListener;
import dev.converge.queue.internal.ManualTicker;
import dev.converge.queue.internal.WorkQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RateLimitTest {

  private final ManualTicker ticker = new ManualTicker();

  @Test
  void afterAnOutageRetriesOfManyKeysAreSpreadAtTheOverallRateOnceTheBurstIsUsed() {
    WorkQueue<String> queue =
        new WorkQueue<>(
            ticker, ExponentialBackoff.DEFAULT, RateLimit.DEFAULT, QueueListener.none());
    List<Duration> delays = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      delays.add(queue.addRateLimited("key-" + i)); // every key fails once, at the same instant
    }
    // the first 100 take the burst and wait only their own backoff (5 ms)
    assertThat(delays.subList(0, 100)).containsOnly(Duration.ofMillis(5));
    // then one every 100 ms (10 per second)
    assertThat(delays.get(100)).isEqualTo(Duration.ofMillis(100));
    assertThat(delays.get(101)).isEqualTo(Duration.ofMillis(200));
    assertThat(delays.get(149)).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void theBucketRefillsWithTime() {
    WorkQueue<String> queue =
        new WorkQueue<>(
            ticker, ExponentialBackoff.DEFAULT, new RateLimit(10, 1), QueueListener.none());
    assertThat(queue.addRateLimited("a")).isEqualTo(Duration.ofMillis(5));
    assertThat(queue.addRateLimited("b")).isEqualTo(Duration.ofMillis(100));
    ticker.advance(Duration.ofSeconds(10)); // refills to the burst of 1, no more
    assertThat(queue.addRateLimited("c")).isEqualTo(Duration.ofMillis(5));
    assertThat(queue.addRateLimited("d")).isEqualTo(Duration.ofMillis(100));
  }

  @Test
  void aLongPerKeyBackoffWinsOverTheBucket() {
    WorkQueue<String> queue =
        new WorkQueue<>(
            ticker,
            new ExponentialBackoff(Duration.ofSeconds(1), Duration.ofSeconds(60)),
            new RateLimit(10, 1),
            QueueListener.none());
    assertThat(queue.addRateLimited("a")).isEqualTo(Duration.ofSeconds(1));
    assertThat(queue.addRateLimited("a")).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void freshEventsAreNeverLimited() {
    WorkQueue<String> queue =
        new WorkQueue<>(
            ticker, ExponentialBackoff.DEFAULT, new RateLimit(1, 1), QueueListener.none());
    for (int i = 0; i < 1000; i++) {
      queue.add("key-" + i);
    }
    assertThat(queue.depth()).isEqualTo(1000);
  }

  @Test
  void unlimitedLeavesOnlyThePerKeyBackoff() {
    WorkQueue<String> queue =
        new WorkQueue<>(
            ticker, ExponentialBackoff.DEFAULT, RateLimit.unlimited(), QueueListener.none());
    for (int i = 0; i < 1000; i++) {
      assertThat(queue.addRateLimited("key-" + i)).isEqualTo(Duration.ofMillis(5));
    }
  }

  @Test
  void nonsenseIsRefusedWithTheFix() {
    assertThatThrownBy(() -> new RateLimit(0, 10)).hasMessageContaining("RateLimit.unlimited()");
    assertThatThrownBy(() -> new RateLimit(10, 0)).hasMessageContaining("burst must be at least 1");
  }
}
