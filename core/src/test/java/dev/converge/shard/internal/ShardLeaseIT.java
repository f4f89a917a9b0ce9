package dev.converge.shard.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.operator.internal.LeaseFence;
import dev.converge.queue.internal.Ticker;
import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Shard membership Leases as the API server stores them. */
@ExtendWith(LocalClusterExtension.class)
class ShardLeaseIT {

  private static final Duration DURATION = Duration.ofSeconds(15);

  private static ShardLease member(KubernetesClient client, String identity, LeaseFence fence) {
    return new ShardLease(
        client,
        client.getNamespace(),
        "widgets",
        identity,
        DURATION,
        fence,
        Ticker.system(),
        Clock.systemUTC());
  }

  private static LeaseFence fence() {
    return new LeaseFence(Ticker.system(), Duration.ofSeconds(10));
  }

  @Test
  void membersWriteLabelledLeasesThatTheRingReadsBack(KubernetesClient client) {
    LeaseFence fenceA = fence();
    ShardLease a = member(client, "Operator-0_A", fenceA);
    ShardLease b = member(client, "operator-1", fence());

    a.renew();
    b.renew();

    List<Lease> leases = ShardLease.list(client, client.getNamespace(), "widgets");
    assertThat(leases)
        .extracting(l -> l.getMetadata().getName())
        .containsExactlyInAnyOrder("widgets-operator-0-a", "widgets-operator-1");
    Lease leaseA =
        leases.stream()
            .filter(l -> l.getMetadata().getName().equals("widgets-operator-0-a"))
            .findFirst()
            .orElseThrow();
    assertThat(leaseA.getSpec().getHolderIdentity()).isEqualTo("Operator-0_A");
    assertThat(leaseA.getSpec().getLeaseDurationSeconds()).isEqualTo(15);
    assertThat(leaseA.getSpec().getRenewTime()).isNotNull();
    assertThat(fenceA.remainingNanos()).as("an accepted renewal opens the fence").isPositive();

    ShardMembers members = new ShardMembers();
    members.observe(leases, System.nanoTime());
    assertThat(members.live(System.nanoTime())).containsExactly("Operator-0_A", "operator-1");
  }

  @Test
  void aRenewalMovesTheLeaseOnEvenAfterSomeoneElseWroteIt(KubernetesClient client) {
    ShardLease a = member(client, "a", fence());
    a.renew();
    Lease first = client.leases().withName("widgets-a").get();
    client
        .leases()
        .withName("widgets-a")
        .edit(
            l -> {
              l.getMetadata().getAnnotations().put("touched", "by-hand");
              return l;
            });

    a.renew();

    Lease after = client.leases().withName("widgets-a").get();
    assertThat(Long.parseLong(after.getMetadata().getResourceVersion()))
        .isGreaterThan(Long.parseLong(first.getMetadata().getResourceVersion()) + 1);
    assertThat(after.getMetadata().getAnnotations()).containsEntry("touched", "by-hand");
    assertThat(after.getMetadata().getUid()).isEqualTo(first.getMetadata().getUid());
  }

  @Test
  void aReleasedMemberIsGoneAndCanNoLongerWrite(KubernetesClient client) {
    LeaseFence fenceB = fence();
    ShardLease a = member(client, "a", fence());
    ShardLease b = member(client, "b", fenceB);
    a.renew();
    b.renew();

    b.release();

    assertThat(client.leases().withName("widgets-b").get()).isNull();
    assertThat(fenceB.remainingNanos()).isNotPositive();
    ShardMembers members = new ShardMembers();
    members.observe(ShardLease.list(client, client.getNamespace(), "widgets"), System.nanoTime());
    assertThat(members.live(System.nanoTime())).containsExactly("a");
    b.release(); // already gone: not an error
  }

  /**
   * The sharder counts an expired member out by deleting its Lease on the resourceVersion it saw:
   * the member's next renewal must not create the Lease again (its objects may be with others by
   * then), and its fence stays closed. A delete on a resourceVersion the member has renewed past is
   * refused, and the member stays in.
   */
  @Test
  void aMemberWhoseLeaseWasDeletedCannotRejoinByRenewing(KubernetesClient client) {
    LeaseFence fence = fence();
    ShardLease c = member(client, "c", fence);
    c.renew();
    String seen = client.leases().withName("widgets-c").get().getMetadata().getResourceVersion();
    c.renew(); // renewed past what the sharder saw
    assertThatThrownBy(
            () -> client.leases().withName("widgets-c").lockResourceVersion(seen).delete())
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    assertThat(client.leases().withName("widgets-c").get()).isNotNull();

    String now = client.leases().withName("widgets-c").get().getMetadata().getResourceVersion();
    client.leases().withName("widgets-c").lockResourceVersion(now).delete();

    assertThatThrownBy(c::renew).isInstanceOf(ShardLease.CountedOutException.class);
    assertThat(client.leases().withName("widgets-c").get()).isNull();
    assertThat(fence.remainingNanos()).isNotPositive();
  }
}
