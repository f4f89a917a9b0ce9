package dev.converge.benchmarks.internal;

import java.net.URI;
import java.util.List;

/**
 * An operator the benchmark measures: Converge's example (or any operator given by its command
 * line), or the Go controller-runtime peer run beside it. Both go through the same run, so every
 * figure of the one is measured as the other's.
 *
 * @param mode the run's name in the results ({@code operator}, {@code go}), also the name of its
 *     log files
 * @param command the command line; {@code {kubeconfig}}, {@code {port}}, {@code {metrics-port}} and
 *     {@code {name}} are replaced by the client kubeconfig, two free ports and the start's name
 *     ({@code operator}, {@code operator-restart}), and {@value BenchSettings#CDS} as {@code
 *     startupArchive} says
 * @param readyUrl 200 once the operator's caches are synced ({@code {port}} replaced)
 * @param metricsUrl its Prometheus metrics ({@code {port}} or {@code {metrics-port}} replaced)
 * @param reconcileMetric the counter of reconciles in those metrics, summed over its samples
 * @param startupArchive whether a training start writes a class-data-sharing archive that every
 *     measured start maps (a JVM's option only)
 * @param jvm whether the process may be a JVM whose heap {@code jcmd} reads after a full GC; false
 *     for a process known not to be one, which must not get {@code jcmd}'s attach signal (SIGQUIT
 *     ends a Go program)
 */
public record OperatorUnderTest(
    String mode,
    List<String> command,
    String readyUrl,
    String metricsUrl,
    String reconcileMetric,
    boolean startupArchive,
    boolean jvm) {

  public OperatorUnderTest {
    command = List.copyOf(command);
  }

  URI readyUri(int port, int metricsPort) {
    return URI.create(replacePorts(readyUrl, port, metricsPort));
  }

  URI metricsUri(int port, int metricsPort) {
    return URI.create(replacePorts(metricsUrl, port, metricsPort));
  }

  static String replacePorts(String text, int port, int metricsPort) {
    return text.replace("{metrics-port}", Integer.toString(metricsPort))
        .replace("{port}", Integer.toString(port));
  }
}
