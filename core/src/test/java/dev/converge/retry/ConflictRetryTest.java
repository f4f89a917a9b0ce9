package dev.converge.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConflictRetryTest {

  private final List<Duration> pauses = new ArrayList<>();

  private ConflictRetry retry(double jitter) {
    return ConflictRetry.defaults().withPause(pauses::add).withJitter(() -> jitter);
  }

  private static KubernetesClientException conflict() {
    return new KubernetesClientException(
        "Operation cannot be fulfilled: the object has been" + " modified", 409, null);
  }

  @Test
  void returnsAsSoonAsAnAttemptSucceeds() {
    AtomicInteger calls = new AtomicInteger();

    String result =
        retry(1.0)
            .call(
                "ConfigMap ns/cfg",
                attempt -> {
                  calls.incrementAndGet();
                  if (attempt < 3) {
                    throw conflict();
                  }
                  return "written on attempt " + attempt;
                });

    assertThat(result).isEqualTo("written on attempt 3");
    assertThat(calls).hasValue(3);
    assertThat(pauses).containsExactly(Duration.ofMillis(10), Duration.ofMillis(20));
  }

  @Test
  void givesUpAfterMaxAttemptsNamingResourceAndCount() {
    AtomicInteger calls = new AtomicInteger();

    assertThatThrownBy(
            () ->
                retry(1.0)
                    .withMaxAttempts(4)
                    .call(
                        "ConfigMap ns/cfg",
                        attempt -> {
                          calls.incrementAndGet();
                          throw conflict();
                        }))
        .isInstanceOf(ConflictRetriesExhaustedException.class)
        .hasMessageContaining("ConfigMap ns/cfg")
        .hasMessageContaining("4 attempts")
        .hasCauseInstanceOf(KubernetesClientException.class)
        .satisfies(
            e -> {
              ConflictRetriesExhaustedException x = (ConflictRetriesExhaustedException) e;
              assertThat(x.attempts()).isEqualTo(4);
              assertThat(x.resource()).isEqualTo("ConfigMap ns/cfg");
            });
    assertThat(calls).hasValue(4);
    assertThat(pauses).hasSize(3);
  }

  @Test
  void backoffDoublesIsCappedAndJitteredIntoTheUpperHalf() {
    ConflictRetry r =
        retry(0.0).withMaxAttempts(7).withBackoff(Duration.ofMillis(10), Duration.ofMillis(50));

    assertThatThrownBy(
            () ->
                r.call(
                    "x",
                    attempt -> {
                      throw conflict();
                    }))
        .isInstanceOf(ConflictRetriesExhaustedException.class);

    // jitter 0 -> half of each step: 10,20,40,50,50,50 halved
    assertThat(pauses)
        .containsExactly(
            Duration.ofMillis(5),
            Duration.ofMillis(10),
            Duration.ofMillis(20),
            Duration.ofMillis(25),
            Duration.ofMillis(25),
            Duration.ofMillis(25));
    assertThat(r.maxTotalWait()).isEqualTo(Duration.ofMillis(220));
  }

  @Test
  void defaultTotalWaitIsSmall() {
    assertThat(ConflictRetry.defaults().maxTotalWait()).isEqualTo(Duration.ofMillis(150));
    assertThat(ConflictRetry.defaults().maxAttempts()).isEqualTo(5);
  }

  @Test
  void otherErrorsAreNotRetried() {
    AtomicInteger calls = new AtomicInteger();

    assertThatThrownBy(
            () ->
                retry(1.0)
                    .call(
                        "x",
                        attempt -> {
                          calls.incrementAndGet();
                          throw new KubernetesClientException("forbidden", 403, null);
                        }))
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("forbidden");
    assertThat(calls).hasValue(1);
    assertThat(pauses).isEmpty();
  }

  @Test
  void conflictIsRecognisedThroughCauses() {
    assertThat(ConflictRetry.isConflict(new RuntimeException(conflict()))).isTrue();
    assertThat(ConflictRetry.isConflict(new KubernetesClientException("nf", 404, null))).isFalse();
    assertThat(ConflictRetry.isConflict(null)).isFalse();
  }

  @Test
  void interruptedWaitStopsAndKeepsTheInterruptFlag() {
    ConflictRetry r =
        ConflictRetry.defaults()
            .withPause(
                d -> {
                  throw new InterruptedException();
                });
    try {
      assertThatThrownBy(
              () ->
                  r.call(
                      "ConfigMap ns/cfg",
                      attempt -> {
                        throw conflict();
                      }))
          .isInstanceOf(java.util.concurrent.CancellationException.class)
          .hasMessageContaining("ConfigMap ns/cfg");
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void invalidConfigurationIsRefused() {
    assertThatThrownBy(() -> ConflictRetry.defaults().withMaxAttempts(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> ConflictRetry.defaults().withBackoff(Duration.ofMillis(10), Duration.ofMillis(5)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
