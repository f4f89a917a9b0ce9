package dev.converge.operator.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.operator.LeaseLostException;
import dev.converge.queue.internal.ManualTicker;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeaseFenceTest {

  private final ManualTicker ticker = new ManualTicker();
  private final LeaseFence fence = new LeaseFence(ticker, Duration.ofSeconds(10));

  @Test
  void theWindowIsTheRenewDeadlineAndNeverMoreThanFourFifthsOfTheLease() {
    assertThat(LeaseFence.window(Duration.ofSeconds(15), Duration.ofSeconds(10)))
        .isEqualTo(Duration.ofSeconds(10));
    assertThat(LeaseFence.window(Duration.ofSeconds(15), Duration.ofSeconds(14)))
        .isEqualTo(Duration.ofSeconds(12));
    assertThat(LeaseFence.window(Duration.ofSeconds(4), Duration.ofMillis(3500)))
        .isEqualTo(Duration.ofMillis(3200));
  }

  @Test
  void nothingPassesBeforeTheFirstAcceptedRenewalOrWhileNotLeading() {
    assertThatThrownBy(() -> fence.check("PATCH /x"))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("PATCH /x was not sent")
        .hasMessageContaining("does not hold the leader Lease");
    fence.renewed(ticker.nanoTime());
    assertThatThrownBy(() -> fence.check("PATCH /x")).isInstanceOf(LeaseLostException.class);
    fence.leading();
    assertThat(fence.check("PATCH /x")).isEqualTo(Duration.ofSeconds(10).toNanos());
    fence.closed();
    assertThatThrownBy(() -> fence.check("PATCH /x")).isInstanceOf(LeaseLostException.class);
    assertThat(fence.fencedWrites()).isEqualTo(3);
  }

  @Test
  void writesPassOnlyWithinTheWindowAfterTheLastAcceptedRenewalWasSent() {
    long sent = ticker.nanoTime();
    fence.renewed(sent);
    fence.leading();
    ticker.advance(Duration.ofMillis(9_999));
    assertThat(fence.check("PUT /y")).isEqualTo(Duration.ofMillis(1).toNanos());
    ticker.advance(Duration.ofMillis(1));
    assertThatThrownBy(() -> fence.check("PUT /y"))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("last renewed 10000 ms ago")
        .hasMessageContaining("the 10000 ms");
    // a renewal accepted later opens it again, counted from when that renewal was sent
    fence.renewed(ticker.nanoTime());
    ticker.advance(Duration.ofSeconds(4));
    assertThat(fence.remainingNanos()).isEqualTo(Duration.ofSeconds(6).toNanos());
    // an older renewal that completes late does not move the fence back
    fence.renewed(sent);
    assertThat(fence.remainingNanos()).isEqualTo(Duration.ofSeconds(6).toNanos());
  }

  @Test
  void theRefusalIsFoundInTheCauseChainOfTheClientsException() {
    KubernetesClientException wrapped =
        new KubernetesClientException("request failed", new LeaseLostException("not sent"));
    assertThat(LeaseLostException.isCause(wrapped)).isTrue();
    assertThat(LeaseLostException.isCause(new KubernetesClientException("409"))).isFalse();
  }
}
