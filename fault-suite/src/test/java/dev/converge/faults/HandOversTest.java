package dev.converge.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.testing.AuditLog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The hand-over rule of {@link HandOvers} on audit records written out by hand. */
class HandOversTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Set<String> IDS = Set.of("a", "b");
  private static final Duration LEASE = Duration.ofSeconds(6);

  private final List<AuditLog.Write> log = new ArrayList<>();

  private void write(
      double second, String agent, String verb, String resource, String sub, String name) {
    Instant at = T0.plusMillis((long) (second * 1000));
    log.add(
        new AuditLog.Write(
            verb,
            "system:serviceaccount:app-operator:app-operator",
            agent,
            resource,
            sub,
            resource.equals("leases") ? "app-operator" : "ns",
            name,
            200,
            at,
            at.plusMillis(5)));
  }

  private void renewals(String id, double from, double to) {
    for (double s = from; s <= to; s += 1) {
      write(s, "app-operator (" + id + ")", "update", "leases", "", "app-operator-" + id);
    }
  }

  @Test
  void anAcknowledgedDrainIsACleanHandOver() {
    renewals("a", 0, 20);
    renewals("b", 0, 20);
    write(1, "app-operator (a) sharder", "patch", "appdeployments", "", "app-1");
    write(2, "app-operator (a)", "patch", "deployments", "", "app-1");
    write(3, "app-operator (a)", "update", "appdeployments", "status", "app-1");
    write(4, "app-operator (a) sharder", "patch", "appdeployments", "", "app-1"); // drain
    write(5, "app-operator (a)", "patch", "appdeployments", "", "app-1"); // labels removed
    write(6, "app-operator (a) sharder", "patch", "appdeployments", "", "app-1"); // to b
    write(7, "app-operator (b)", "patch", "deployments", "", "app-1");

    HandOvers.Result r = HandOvers.judge(log, "ns", "app-operator", IDS, LEASE);

    assertThat(r.handOvers()).isEqualTo(1);
    assertThat(r.acknowledged()).isEqualTo(1);
    assertThat(r.violations()).isEmpty();
    assertThat(r.replicaWrites()).isEqualTo(4);
    assertThat(r.sharderWrites()).isEqualTo(3);
    assertThat(r.writersPerObject()).isEqualTo(Map.of(2, 1));
  }

  @Test
  void aWriteOfTheOldMemberAfterTheNewOnesFirstIsAViolation() {
    renewals("a", 0, 20);
    renewals("b", 0, 20);
    write(1, "app-operator (a)", "patch", "deployments", "", "app-1");
    write(2, "app-operator (a)", "patch", "appdeployments", "", "app-1");
    write(3, "app-operator (b) sharder", "patch", "appdeployments", "", "app-1");
    write(4, "app-operator (b)", "patch", "deployments", "", "app-1");
    write(5, "app-operator (a)", "update", "services", "", "app-1"); // a still writing
    write(6, "app-operator (b)", "patch", "deployments", "", "app-1");

    HandOvers.Result r = HandOvers.judge(log, "ns", "app-operator", IDS, LEASE);

    assertThat(r.handOvers()).isEqualTo(3);
    assertThat(r.acknowledged()).isEqualTo(1);
    assertThat(r.violations()).hasSize(2);
  }

  @Test
  void aDeletedOrExpiredLeaseEndsTheOldMembersTurnWithoutAnAcknowledgement() {
    renewals("a", 0, 10);
    renewals("b", 0, 40);
    write(1, "app-operator (a)", "patch", "deployments", "", "app-1");
    write(2, "app-operator (a)", "patch", "deployments", "", "app-2");
    // a's Lease is deleted at 10.5 (a clean leave) for app-1 ...
    write(10.5, "app-operator (a)", "delete", "leases", "", "app-operator-a");
    write(11, "app-operator (b) sharder", "patch", "appdeployments", "", "app-1");
    write(12, "app-operator (b)", "patch", "deployments", "", "app-1");

    HandOvers.Result deleted = HandOvers.judge(log, "ns", "app-operator", IDS, LEASE);
    assertThat(deleted.leaseDeleted()).isEqualTo(1);
    assertThat(deleted.violations()).isEmpty();

    // ... and, without the deletion, b writing app-2 before a's last renewal (10) + 6 s is not
    // clean
    log.removeIf(w -> w.verb().equals("delete"));
    write(13, "app-operator (b) sharder", "patch", "appdeployments", "", "app-2");
    write(14, "app-operator (b)", "patch", "deployments", "", "app-2");
    HandOvers.Result early = HandOvers.judge(log, "ns", "app-operator", IDS, LEASE);
    assertThat(early.violations()).hasSize(2); // app-1 at 12 and app-2 at 14

    // after it expired (16 = 10 + 6) it is
    log.clear();
    renewals("a", 0, 10);
    write(2, "app-operator (a)", "patch", "deployments", "", "app-2");
    write(16.5, "app-operator (b) sharder", "patch", "appdeployments", "", "app-2");
    write(17, "app-operator (b)", "patch", "deployments", "", "app-2");
    HandOvers.Result expired = HandOvers.judge(log, "ns", "app-operator", IDS, LEASE);
    assertThat(expired.leaseExpired()).isEqualTo(1);
    assertThat(expired.violations()).isEmpty();
  }

  @Test
  void aChangeOfWriterWithoutTheSharderRelabellingIsAViolation() {
    renewals("a", 0, 20);
    renewals("b", 0, 20);
    write(1, "app-operator (a)", "patch", "appdeployments", "", "app-1");
    write(2, "app-operator (b)", "patch", "deployments", "", "app-1");
    write(3, "kube-controller-manager/v1.34", "update", "deployments", "status", "app-1");
    write(4, "fault-suite", "delete", "appdeployments", "", "app-1");

    HandOvers.Result r = HandOvers.judge(log, "ns", "app-operator", IDS, LEASE);

    assertThat(r.handOvers()).isEqualTo(1);
    assertThat(r.violations()).singleElement().asString().contains("ns/app-1", "relabelled by");
    assertThat(r.replicaWrites()).isEqualTo(2); // the controller manager and the suite left out
  }
}
