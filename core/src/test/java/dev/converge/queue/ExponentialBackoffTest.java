package dev.converge.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExponentialBackoffTest {

  @Test
  void defaultSequenceStartsAtFiveMillisAndDoublesUpToThousandSeconds() {
    List<Duration> delays = new ArrayList<>();
    for (int failures = 1; failures <= 20; failures++) {
      delays.add(ExponentialBackoff.DEFAULT.delayAfter(failures));
    }
    assertThat(delays.subList(0, 5))
        .containsExactly(
            Duration.ofMillis(5),
            Duration.ofMillis(10),
            Duration.ofMillis(20),
            Duration.ofMillis(40),
            Duration.ofMillis(80));
    // 5 ms * 2^17 = 655.36 s is the last delay under the cap; the 19th failure hits 1000 s.
    assertThat(delays.get(17)).isEqualTo(Duration.ofMillis(655_360));
    assertThat(delays.get(18)).isEqualTo(Duration.ofSeconds(1000));
    assertThat(delays.get(19)).isEqualTo(Duration.ofSeconds(1000));
  }

  @Test
  void hugeFailureCountsStayAtTheCapWithoutOverflow() {
    assertThat(ExponentialBackoff.DEFAULT.delayAfter(64)).isEqualTo(Duration.ofSeconds(1000));
    assertThat(ExponentialBackoff.DEFAULT.delayAfter(Integer.MAX_VALUE))
        .isEqualTo(Duration.ofSeconds(1000));
  }

  @Test
  void customBaseAndCap() {
    ExponentialBackoff backoff =
        new ExponentialBackoff(Duration.ofSeconds(1), Duration.ofSeconds(5));
    assertThat(
            List.of(
                backoff.delayAfter(1),
                backoff.delayAfter(2),
                backoff.delayAfter(3),
                backoff.delayAfter(4)))
        .containsExactly(
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            Duration.ofSeconds(4),
            Duration.ofSeconds(5));
  }

  @Test
  void rejectsNonsense() {
    assertThatThrownBy(() -> new ExponentialBackoff(Duration.ZERO, Duration.ofSeconds(1)))
        .hasMessageContaining("positive");
    assertThatThrownBy(() -> new ExponentialBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .hasMessageContaining("shorter than the initial");
    assertThatThrownBy(() -> ExponentialBackoff.DEFAULT.delayAfter(0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
