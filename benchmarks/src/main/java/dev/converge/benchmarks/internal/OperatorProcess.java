package dev.converge.benchmarks.internal;

import dev.converge.testing.LaunchedProcess;
import dev.converge.testing.ProcessLauncher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The operator under test as a child process (any language: a command line), with what the
 * benchmark reads from it: readiness and reconcile count over HTTP, CPU time and peak resident
 * memory from {@code /proc} (the process and its descendants), and for a JVM the heap after a full
 * garbage collection through {@code jcmd}.
 */
public final class OperatorProcess implements AutoCloseable {

  private static final Pattern USED = Pattern.compile("used (\\d+)K");
  static final long CLOCK_TICKS = 100; // USER_HZ, 100 on every Linux architecture in use

  private final LaunchedProcess process;
  private final long startedNanos;
  private final URI readyUrl;
  private final URI metricsUrl;
  private final String reconcileMetric;
  private final Path log;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private OperatorProcess(
      LaunchedProcess process,
      long startedNanos,
      URI readyUrl,
      URI metricsUrl,
      String reconcileMetric,
      Path log) {
    this.process = process;
    this.startedNanos = startedNanos;
    this.readyUrl = readyUrl;
    this.metricsUrl = metricsUrl;
    this.reconcileMetric = reconcileMetric;
    this.log = log;
  }

  /** Starts {@code command}, its output appended to {@code log}. */
  public static OperatorProcess start(
      List<String> command, URI readyUrl, URI metricsUrl, String reconcileMetric, Path log) {
    long started = System.nanoTime();
    // the launcher kills the process tree when the benchmark JVM ends (Ctrl-C, a killed test JVM)
    LaunchedProcess process = ProcessLauncher.command(command).name("operator").log(log).start();
    return new OperatorProcess(process, started, readyUrl, metricsUrl, reconcileMetric, log);
  }

  /** When the process was started, in {@link System#nanoTime()}. */
  public long startedNanos() {
    return startedNanos;
  }

  /** True when the readiness URL answers 200 (for the example: every informer cache synced). */
  public boolean ready() {
    checkAlive();
    return get(readyUrl).map(r -> r.statusCode() == 200).orElse(false);
  }

  /**
   * The number of reconciles done so far, from the metrics URL (the sum of every sample of the
   * reconcile metric), or empty when there is no such sample yet.
   */
  public OptionalLong reconciles() {
    checkAlive();
    return get(metricsUrl)
        .filter(r -> r.statusCode() == 200)
        .map(
            r -> {
              long sum = 0;
              boolean found = false;
              for (String line : r.body().lines().toList()) {
                if (line.startsWith(reconcileMetric + "{")
                    || line.startsWith(reconcileMetric + " ")) {
                  String value =
                      line.substring(line.lastIndexOf(line.contains("}") ? '}' : ' ') + 1).trim();
                  sum += Math.round(Double.parseDouble(value.split("\\s+", 2)[0]));
                  found = true;
                }
              }
              return found ? OptionalLong.of(sum) : OptionalLong.empty();
            })
        .orElse(OptionalLong.empty());
  }

  /** CPU seconds (user + system) used so far by the process and its live descendants. */
  public double cpuSeconds() {
    long ticks = 0;
    for (long pid : tree()) {
      ticks += ticksOf(read(Path.of("/proc", Long.toString(pid), "stat")));
    }
    return ticks / (double) CLOCK_TICKS;
  }

  /**
   * CPU seconds used so far by each group of threads of the process tree, threads named alike
   * (digits ignored, {@code /proc/<pid>/task/<tid>/comm}, which Linux cuts at 15 characters) in one
   * group; threads that have ended are the group {@code (ended threads)}: the process's total less
   * its live threads. For a JVM the groups show the share of the JIT compiler ({@code CN}), the
   * garbage collector ({@code GC}, {@code GN}) and the application's own threads.
   */
  public Map<String, Double> cpuSecondsByThread() {
    Map<String, Long> ticks = new TreeMap<>();
    for (long pid : tree()) {
      long total = ticksOf(read(Path.of("/proc", Long.toString(pid), "stat")));
      long live = 0;
      try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
        for (Path task : tasks.toList()) {
          long t = ticksOf(read(task.resolve("stat")));
          String name = read(task.resolve("comm")).trim().replaceAll("\\d+", "N");
          ticks.merge(name.isEmpty() ? "?" : name, t, Long::sum);
          live += t;
        }
      } catch (IOException | UncheckedIOException gone) {
        continue; // the process ended meanwhile
      }
      ticks.merge("(ended threads)", Math.max(0, total - live), Long::sum);
    }
    Map<String, Double> seconds = new TreeMap<>();
    ticks.forEach((name, t) -> seconds.put(name, t / (double) CLOCK_TICKS));
    return seconds;
  }

  /** {@code after - before} per group, groups without CPU in between left out. */
  public static Map<String, Double> difference(
      Map<String, Double> before, Map<String, Double> after) {
    Map<String, Double> diff = new TreeMap<>();
    after.forEach(
        (name, s) -> {
          double d = s - before.getOrDefault(name, 0.0);
          if (d >= 0.005) {
            diff.put(name, d);
          }
        });
    return diff;
  }

  static long ticksOf(String stat) {
    if (stat.isEmpty()) {
      return 0;
    }
    // fields after the command name, which is in parentheses and may hold spaces
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ", -1);
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
  }

  /** The largest peak resident set ({@code VmHWM}) of the process and its descendants, in bytes. */
  public long peakRssBytes() {
    long peak = 0;
    for (long pid : tree()) {
      for (String line : read(Path.of("/proc", Long.toString(pid), "status")).lines().toList()) {
        if (line.startsWith("VmHWM:")) {
          peak = Math.max(peak, Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024);
        }
      }
    }
    return peak;
  }

  /**
   * The {@code jcmd} of the JDK that runs process {@code pid} (beside its executable: the attach
   * protocol of one JDK's tool need not suit another's JVM), else this JVM's.
   */
  private static Path jcmdFor(long pid) {
    try {
      Path beside = Path.of("/proc", Long.toString(pid), "exe").toRealPath().resolveSibling("jcmd");
      if (Files.isExecutable(beside)) {
        return beside;
      }
    } catch (IOException | RuntimeException e) {
      // not on Linux, or the process is gone: this JVM's tool
    }
    return Path.of(System.getProperty("java.home"), "bin", "jcmd");
  }

  /**
   * For a JVM operator: asks it for a full garbage collection and returns the heap in use after it,
   * in bytes; empty when no process of the tree is a JVM that {@code jcmd} can reach. The classes
   * taking the most of that heap go to {@code heap-histogram.txt} beside the operator's log.
   */
  public OptionalLong heapAfterFullGcBytes() {
    for (long pid : tree()) {
      Path jcmd = jcmdFor(pid);
      if (!Files.isExecutable(jcmd)) {
        continue;
      }
      String gc = run(List.of(jcmd.toString(), Long.toString(pid), "GC.run"));
      if (gc.isEmpty() || gc.contains("Exception")) {
        continue;
      }
      long usedKib = 0;
      for (String line :
          run(List.of(jcmd.toString(), Long.toString(pid), "GC.heap_info")).lines().toList()) {
        if (line.contains("Metaspace") || line.contains("class space")) {
          continue;
        }
        Matcher m = USED.matcher(line);
        if (m.find()) {
          usedKib += Long.parseLong(m.group(1));
        }
      }
      if (usedKib > 0) {
        writeHistogram(jcmd, pid);
        return OptionalLong.of(usedKib * 1024);
      }
    }
    return OptionalLong.empty();
  }

  /**
   * The 60 classes with the most bytes on the heap, as {@code jcmd GC.class_histogram} lists them
   * (after its three lines of heading).
   */
  private void writeHistogram(Path jcmd, long pid) {
    List<String> lines =
        run(List.of(jcmd.toString(), Long.toString(pid), "GC.class_histogram"))
            .lines()
            .limit(3 + 60)
            .toList();
    try {
      Files.write(log.resolveSibling("heap-histogram.txt"), lines);
    } catch (IOException e) {
      // the histogram is an aid, not a figure; the run goes on without it
    }
  }

  /** Seconds since start. */
  public double secondsSinceStart(long nanos) {
    return (nanos - startedNanos) / 1e9;
  }

  private List<Long> tree() {
    List<Long> pids = new ArrayList<>();
    pids.add(process.pid());
    process.handle().descendants().forEach(p -> pids.add(p.pid()));
    return pids;
  }

  private void checkAlive() {
    if (!process.isAlive()) {
      throw new IllegalStateException(
          "the operator exited with code "
              + process.exitCode().orElse(-1)
              + "; its output is in "
              + log);
    }
  }

  private java.util.Optional<HttpResponse<String>> get(URI uri) {
    try {
      return java.util.Optional.of(
          http.send(
              HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
              HttpResponse.BodyHandlers.ofString()));
    } catch (IOException notYet) {
      return java.util.Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading " + uri, e);
    }
  }

  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException gone) {
      return ""; // the process ended between listing and reading
    }
  }

  private static String run(List<String> command) {
    try {
      ProcessLauncher.Finished finished =
          ProcessLauncher.command(command).run(Duration.ofSeconds(60));
      return finished.exitCode() == 0 ? finished.output() : "";
    } catch (IllegalStateException e) {
      if (Thread.currentThread().isInterrupted()) {
        throw e;
      }
      return ""; // no answer within a minute: no figure from it
    } catch (UncheckedIOException e) {
      return ""; // jcmd could not start: no figure from it
    }
  }

  /** Stops the operator: SIGTERM, then SIGKILL after 30 s. */
  @Override
  public void close() {
    process.stop(Duration.ofSeconds(30));
    process.close();
  }

  /** The output file. */
  public Path log() {
    return log;
  }
}
