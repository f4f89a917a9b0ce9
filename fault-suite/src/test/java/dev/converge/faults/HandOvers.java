package dev.converge.faults;

import dev.converge.testing.AuditLog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Judges, from kube-apiserver's audit log alone, whether the replicas of a sharded operator ever
 * wrote to one object at the same time: for every AppDeployment, the accepted writes to it and to
 * its children (its Deployment and Service, which bear its name in its namespace), ordered by the
 * time the API server received them.
 *
 * <p>Each write is attributed to the replica whose identity ends its user agent ({@code ...
 * (<identity>)}); the sharder's writes ({@code ... (<identity>) sharder}) are counted apart and are
 * not a replica's writes; anyone else's writes (the suite's, the controller manager's) are left
 * out. A change of writer from A to B at B's first write is a <em>hand-over</em>, and it is clean
 * only when all of these hold:
 *
 * <ul>
 *   <li>the sharder wrote the AppDeployment (labelled it for B) after A's last write and before B's
 *       first;
 *   <li>and A gave the object up: A's last write was a patch of the AppDeployment itself (the
 *       removal of the shard and drain labels that acknowledges a drain; the audit log is at
 *       Metadata level, so the patch's content is not seen), or A's shard Lease ({@code
 *       <ring>-<A>}) was deleted after A's last write and before B's first write (a clean leave),
 *       or A's Lease had expired at B's first write: no renewal of it accepted within the lease
 *       duration before it (A was killed).
 * </ul>
 *
 * A replica that keeps writing after the object went to another makes a change of writer back to it
 * that is not clean, so "A writes nothing between B's first write and the next hand-over back to A"
 * is part of the rule. Every hand-over that is not clean is a violation.
 */
final class HandOvers {

  private static final Pattern AGENT = Pattern.compile("\\(([^()]+)\\)( sharder)?$");
  private static final Set<String> OBJECTS = Set.of("appdeployments", "deployments", "services");

  /**
   * What the log shows.
   *
   * @param replicaWrites accepted writes of replicas to AppDeployments and their children
   * @param sharderWrites accepted writes of a sharder to AppDeployments
   * @param handOvers changes of writer, clean or not
   * @param acknowledged clean hand-overs after the old writer's own patch of the AppDeployment
   * @param leaseDeleted clean hand-overs after the old writer's Lease was deleted
   * @param leaseExpired clean hand-overs after the old writer's Lease expired
   * @param writersPerObject how many AppDeployments had 1, 2, ... writers over the run
   * @param violations each hand-over that was not clean, described
   */
  record Result(
      int replicaWrites,
      int sharderWrites,
      int handOvers,
      int acknowledged,
      int leaseDeleted,
      int leaseExpired,
      Map<Integer, Integer> writersPerObject,
      List<String> violations) {

    String summary() {
      return String.format(
          "%d replica writes and %d sharder writes to AppDeployments and their children; %d"
              + " hand-overs (%d acknowledged by the old member, %d after its Lease was deleted,"
              + " %d after it expired); AppDeployments by number of writers %s; %d violations",
          replicaWrites,
          sharderWrites,
          handOvers,
          acknowledged,
          leaseDeleted,
          leaseExpired,
          writersPerObject,
          violations.size());
    }
  }

  private HandOvers() {}

  /**
   * Judges the writes of {@code ids} in {@code namespace}.
   *
   * @param writes the audit log's writes
   * @param namespace the AppDeployments' namespace
   * @param ring the ring's name (the leader-election Lease's name)
   * @param ids the replicas' identities
   * @param leaseDuration the shard Leases' duration
   */
  static Result judge(
      List<AuditLog.Write> writes,
      String namespace,
      String ring,
      Set<String> ids,
      Duration leaseDuration) {
    Map<String, String> leaseOf = new HashMap<>();
    for (String id : ids) {
      leaseOf.put((ring + "-" + id).toLowerCase(Locale.ROOT), id);
    }
    Map<String, List<Instant>> renewals = new HashMap<>();
    Map<String, List<Instant>> deletions = new HashMap<>();
    Map<String, List<AuditLog.Write>> byObject = new TreeMap<>();
    Map<String, List<Instant>> relabels = new HashMap<>();
    Map<String, List<AuditLog.Write>> history = new HashMap<>();
    int sharderWrites = 0;
    for (AuditLog.Write w : writes) {
      if (!w.accepted()) {
        continue;
      }
      if (w.resource().equals("leases") && leaseOf.containsKey(w.name())) {
        String id = leaseOf.get(w.name());
        (w.verb().equals("delete") ? deletions : renewals)
            .computeIfAbsent(id, k -> new ArrayList<>())
            .add(w.received());
        continue;
      }
      if (!w.namespace().equals(namespace) || !OBJECTS.contains(w.resource())) {
        continue;
      }
      Matcher m = AGENT.matcher(w.userAgent());
      if (!m.find() || !ids.contains(m.group(1))) {
        continue;
      }
      history.computeIfAbsent(w.name(), k -> new ArrayList<>()).add(w);
      if (m.group(2) != null) {
        if (w.resource().equals("appdeployments")) {
          relabels.computeIfAbsent(w.name(), k -> new ArrayList<>()).add(w.received());
          sharderWrites++;
        }
        continue;
      }
      byObject.computeIfAbsent(w.name(), k -> new ArrayList<>()).add(w);
    }

    int replicaWrites = 0;
    int handOvers = 0;
    int acknowledged = 0;
    int leaseDeleted = 0;
    int leaseExpired = 0;
    Map<Integer, Integer> writersPerObject = new TreeMap<>();
    List<String> violations = new ArrayList<>();
    for (Map.Entry<String, List<AuditLog.Write>> entry : byObject.entrySet()) {
      String name = entry.getKey();
      List<AuditLog.Write> list = new ArrayList<>(entry.getValue());
      list.sort(
          Comparator.comparing(AuditLog.Write::received).thenComparing(AuditLog.Write::completed));
      replicaWrites += list.size();
      writersPerObject.merge(
          (int) list.stream().map(HandOvers::writer).distinct().count(), 1, Integer::sum);
      AuditLog.Write last = null;
      for (AuditLog.Write w : list) {
        if (last != null && !writer(last).equals(writer(w))) {
          handOvers++;
          String from = writer(last);
          Instant lastAt = last.received();
          Instant firstAt = w.received();
          boolean relabelled =
              relabels.getOrDefault(name, List.of()).stream()
                  .anyMatch(t -> t.isAfter(lastAt) && t.isBefore(firstAt));
          boolean ack =
              last.resource().equals("appdeployments")
                  && last.subresource().isEmpty()
                  && last.verb().equals("patch");
          boolean deleted =
              deletions.getOrDefault(from, List.of()).stream()
                  .anyMatch(t -> !t.isBefore(lastAt) && t.isBefore(firstAt));
          Optional<Instant> lastRenewal =
              renewals.getOrDefault(from, List.of()).stream()
                  .filter(t -> t.isBefore(firstAt))
                  .max(Comparator.naturalOrder());
          boolean expired =
              lastRenewal.isEmpty() || !lastRenewal.get().plus(leaseDuration).isAfter(firstAt);
          if (relabelled && ack) {
            acknowledged++;
          } else if (relabelled && deleted) {
            leaseDeleted++;
          } else if (relabelled && expired) {
            leaseExpired++;
          } else {
            violations.add(
                String.format(
                    "AppDeployment %s/%s: %s wrote (%s) at %s, then %s (%s) at %s; relabelled by"
                        + " the sharder in between: %s; %s's Lease deleted in between: %s,"
                        + " last renewed before: %s; its writes: %s",
                    namespace,
                    name,
                    from,
                    last.verb() + " " + last.resource() + suffix(last),
                    lastAt,
                    writer(w),
                    w.verb() + " " + w.resource() + suffix(w),
                    firstAt,
                    relabelled,
                    from,
                    deleted,
                    lastRenewal.map(Instant::toString).orElse("never"),
                    history(history.get(name))));
          }
        }
        last = w;
      }
    }
    return new Result(
        replicaWrites,
        sharderWrites,
        handOvers,
        acknowledged,
        leaseDeleted,
        leaseExpired,
        writersPerObject,
        violations);
  }

  /** The writes to one object, in order of receipt, as {@code seconds writer verb resource}. */
  private static String history(List<AuditLog.Write> writes) {
    List<AuditLog.Write> sorted = new ArrayList<>(writes);
    sorted.sort(Comparator.comparing(AuditLog.Write::received));
    List<String> lines = new ArrayList<>();
    for (AuditLog.Write w : sorted.subList(0, Math.min(sorted.size(), 40))) {
      Matcher m = AGENT.matcher(w.userAgent());
      lines.add(
          w.received().toString().substring(11)
              + " "
              + (m.find() ? m.group(1) + (m.group(2) == null ? "" : " sharder") : w.userAgent())
              + " "
              + w.verb()
              + " "
              + w.resource()
              + suffix(w));
    }
    return lines.toString();
  }

  private static String suffix(AuditLog.Write w) {
    return w.subresource().isEmpty() ? "" : "/" + w.subresource();
  }

  private static String writer(AuditLog.Write w) {
    Matcher m = AGENT.matcher(w.userAgent());
    return m.find() ? m.group(1) : w.userAgent();
  }
}
