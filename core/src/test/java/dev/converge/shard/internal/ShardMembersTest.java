package dev.converge.shard.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShardMembersTest {

  private static final long SECOND = 1_000_000_000L;

  private static Lease lease(String identity, String resourceVersion) {
    return new LeaseBuilder()
        .withNewMetadata()
        .withName("ring-" + identity)
        .withResourceVersion(resourceVersion)
        .endMetadata()
        .withNewSpec()
        .withHolderIdentity(identity)
        .withLeaseDurationSeconds(10)
        .endSpec()
        .build();
  }

  @Test
  void aMemberWhoseLeaseKeepsChangingStaysIn() {
    ShardMembers members = new ShardMembers();
    members.observe(List.of(lease("a", "1"), lease("b", "1")), 0);
    members.observe(List.of(lease("a", "2"), lease("b", "1")), 8 * SECOND);

    assertThat(members.live(9 * SECOND)).containsExactly("a", "b");
    assertThat(members.live(10 * SECOND))
        .as("b unchanged for a full duration")
        .containsExactly("a");
    assertThat(members.live(18 * SECOND)).isEmpty();
  }

  @Test
  void anExpiredLeaseIsStillPresentAndNamedForDeletionWithTheVersionSeen() {
    ShardMembers members = new ShardMembers();
    members.observe(List.of(lease("a", "1"), lease("b", "5")), 0);
    members.observe(List.of(lease("a", "2"), lease("b", "5")), 8 * SECOND);

    assertThat(members.expired(9 * SECOND)).isEmpty();
    assertThat(members.expired(10 * SECOND)).isEqualTo(java.util.Map.of("ring-b", "5"));
    assertThat(members.present())
        .as("b may still hold objects until its Lease is gone")
        .containsExactly("a", "b");

    members.observe(List.of(lease("a", "2")), 11 * SECOND);
    assertThat(members.present()).containsExactly("a");
    assertThat(members.expired(11 * SECOND)).isEmpty();
  }

  @Test
  void aDeletedLeaseIsOutAtOnce() {
    ShardMembers members = new ShardMembers();
    members.observe(List.of(lease("a", "1"), lease("b", "1")), 0);
    members.observe(List.of(lease("a", "1")), SECOND);

    assertThat(members.live(SECOND)).containsExactly("a");
  }

  @Test
  void aLeaseFirstSeenCountsAsRenewedWhenSeen() {
    ShardMembers members = new ShardMembers();
    members.observe(List.of(lease("a", "7")), 100 * SECOND);

    assertThat(members.live(109 * SECOND)).containsExactly("a");
    assertThat(members.live(110 * SECOND)).isEmpty();
    assertThat(members.nanosUntilNextExpiry(104 * SECOND)).isEqualTo(6 * SECOND);
  }

  @Test
  void aLeaseNobodyHoldsIsNoMember() {
    ShardMembers members = new ShardMembers();
    Lease unheld =
        new LeaseBuilder(lease("a", "1")).editSpec().withHolderIdentity("").endSpec().build();
    members.observe(List.of(unheld), 0);

    assertThat(members.live(0)).isEmpty();
    assertThat(members.nanosUntilNextExpiry(0)).isEqualTo(Long.MAX_VALUE);
  }
}
