package dev.converge.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The replicas' readiness as a kubelet's probe sees it: {@code GET /readyz} over HTTP every 200 ms,
 * each replica's answers kept as the sequence of distinct statuses (200 ready, 503 not ready, -1 no
 * answer).
 */
final class ReadinessLog implements AutoCloseable {

  private final Map<OperatorReplica, List<Integer>> statuses = new HashMap<>();
  private final java.util.concurrent.ScheduledFuture<?> polling;
  private final ScheduledExecutorService poller =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "fault-suite-readyz");
            t.setDaemon(true);
            return t;
          });

  ReadinessLog(List<OperatorReplica> replicas) {
    replicas.forEach(r -> statuses.put(r, new ArrayList<>()));
    polling =
        poller.scheduleWithFixedDelay(
            () -> replicas.forEach(this::probe), 0, 200, TimeUnit.MILLISECONDS);
  }

  private void probe(OperatorReplica replica) {
    int status = replica.readyStatus();
    synchronized (statuses) {
      List<Integer> seen = statuses.get(replica);
      if (seen.isEmpty() || seen.get(seen.size() - 1) != status) {
        seen.add(status);
      }
    }
  }

  /** The distinct statuses {@code replica} answered, in order. */
  List<Integer> of(OperatorReplica replica) {
    synchronized (statuses) {
      return List.copyOf(statuses.get(replica));
    }
  }

  /** The replica answered not ready (503), and ready (200) after that. */
  boolean falseThenTrue(OperatorReplica replica) {
    List<Integer> seen = of(replica);
    int notReady = seen.indexOf(503);
    return notReady >= 0 && seen.subList(notReady, seen.size()).contains(200);
  }

  /** The statuses as text: {@code 200 -> 503 -> 200}. */
  String describe(OperatorReplica replica) {
    return of(replica).stream().map(String::valueOf).collect(Collectors.joining(" -> "));
  }

  @Override
  public void close() {
    polling.cancel(true);
    poller.shutdownNow();
  }
}
