package dev.converge.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeaderElectionTest {

  @Test
  void defaultsAreFifteenTenAndTwoSeconds() {
    LeaderElection election = LeaderElection.onLease("operators", "app-operator");
    assertThat(election.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
    assertThat(election.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
    assertThat(election.retryPeriod()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void identitiesOfTwoInstancesDiffer() {
    assertThat(LeaderElection.onLease("ns", "l").identity())
        .isNotEqualTo(LeaderElection.onLease("ns", "l").identity());
  }

  @Test
  void timingsThatCannotWorkAreRejectedWithTheRule() {
    LeaderElection election = LeaderElection.onLease("ns", "l");
    assertThatThrownBy(
            () ->
                election.withTimings(
                    Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(2)))
        .hasMessageContaining(
            "renewDeadline (PT10S) must be shorter than" + " leaseDuration (PT10S)");
    assertThatThrownBy(
            () ->
                election.withTimings(
                    Duration.ofSeconds(15), Duration.ofSeconds(2), Duration.ofSeconds(2)))
        .hasMessageContaining("retryPeriod");
    assertThatThrownBy(() -> LeaderElection.onLease(" ", "l"))
        .hasMessageContaining("leaseNamespace");
  }
}
