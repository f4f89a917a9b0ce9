package dev.converge.benchmarks.internal;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU seconds used so far by each process of the local control plane the harness started (its child
 * processes named {@code etcd}, {@code kube-apiserver}, {@code kube-controller-manager}, {@code
 * kube-scheduler}, {@code kwok}), from {@code /proc/<pid>/stat}. On a machine of two cores the
 * operator and the control plane share the CPU: what the control plane spends for an operator's
 * requests is as much its cost as its own CPU.
 */
public final class ControlPlaneCpu {

  /** The components, in the order they are shown. */
  public static final List<String> COMPONENTS =
      List.of("kube-apiserver", "etcd", "kube-controller-manager", "kube-scheduler", "kwok");

  private ControlPlaneCpu() {}

  /** CPU seconds so far by component; components not running are left out. */
  public static Map<String, Double> snapshot() {
    Map<String, Long> ticks = new TreeMap<>();
    ProcessHandle.current()
        .descendants()
        .forEach(
            p -> {
              String name =
                  p.info().command().map(c -> Path.of(c).getFileName().toString()).orElse("");
              if (COMPONENTS.contains(name)) {
                long t =
                    OperatorProcess.ticksOf(
                        OperatorProcess.read(Path.of("/proc", Long.toString(p.pid()), "stat")));
                ticks.merge(name, t, Long::sum);
              }
            });
    Map<String, Double> seconds = new TreeMap<>();
    ticks.forEach((name, t) -> seconds.put(name, t / (double) OperatorProcess.CLOCK_TICKS));
    return seconds;
  }
}
