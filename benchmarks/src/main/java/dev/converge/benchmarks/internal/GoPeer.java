package dev.converge.benchmarks.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The Go controller-runtime twin of the example operator ({@code benchmarks/peer-go}), which the
 * benchmark runs beside Converge's so that users can judge the framework against what they would
 * otherwise write. Its build script keeps the binary in the cache folder beside the control plane's
 * and rebuilds it only when its sources changed; {@link #build} runs that script.
 */
public final class GoPeer {

  /** The counter of reconciles controller-runtime exposes, one sample per controller and result. */
  public static final String RECONCILE_METRIC = "controller_runtime_reconcile_total";

  /** How long a first build may take on a loaded machine: controller-runtime is large. */
  private static final long BUILD_MINUTES = 30;

  private GoPeer() {}

  /**
   * Builds the twin when its sources changed and returns its binary.
   *
   * @param log where the build's output goes
   * @throws IllegalStateException when the build script is not found or fails, naming the log
   */
  public static Path build(Path log) {
    Path script =
        Stream.of(
                Path.of("benchmarks", "peer-go", "build.sh"),
                Path.of("peer-go", "build.sh"),
                Path.of("..", "benchmarks", "peer-go", "build.sh"))
            .filter(Files::isRegularFile)
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "benchmarks/peer-go/build.sh not found from "
                            + Path.of("").toAbsolutePath()
                            + "; run from the repository root or the benchmarks module"));
    try {
      Files.createDirectories(log.toAbsolutePath().getParent());
      Process build =
          new ProcessBuilder("bash", script.toString())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      if (!build.waitFor(BUILD_MINUTES, TimeUnit.MINUTES)) {
        build.descendants().forEach(ProcessHandle::destroyForcibly);
        build.destroyForcibly();
        throw new IllegalStateException(
            script + " did not finish within " + BUILD_MINUTES + " minutes; see " + log);
      }
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      Path binary = lines.isEmpty() ? null : Path.of(lines.get(lines.size() - 1).trim());
      if (build.exitValue() != 0 || binary == null || !Files.isExecutable(binary)) {
        throw new IllegalStateException(
            script + " failed (exit code " + build.exitValue() + "); its output is in " + log);
      }
      return binary;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + script + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while building the Go peer", e);
    }
  }

  /**
   * The twin as the benchmark runs it: on the measured client's kubeconfig, its readiness probe
   * (caches synced) and metrics on two free ports, leader election off, its default of 16 workers
   * as the example's, and {@code options} after its own arguments (e.g. {@code --workers=32}).
   */
  public static OperatorUnderTest of(Path binary, List<String> options) {
    List<String> command =
        new ArrayList<>(
            List.of(
                binary.toString(),
                "--kubeconfig={kubeconfig}",
                "--health-probe-bind-address=127.0.0.1:{port}",
                "--metrics-bind-address=127.0.0.1:{metrics-port}"));
    command.addAll(options);
    return new OperatorUnderTest(
        Reports.PEER_MODE,
        command,
        "http://127.0.0.1:{port}/readyz",
        "http://127.0.0.1:{metrics-port}/metrics",
        RECONCILE_METRIC,
        false,
        false);
  }
}
