package dev.converge.benchmarks;

import dev.converge.benchmarks.internal.BenchSettings;
import dev.converge.benchmarks.internal.BenchmarkRun;
import dev.converge.benchmarks.internal.GoPeer;
import dev.converge.benchmarks.internal.OperatorUnderTest;
import dev.converge.benchmarks.internal.ProfileSummary;
import dev.converge.benchmarks.internal.Reports;
import dev.converge.benchmarks.internal.RunFigures;
import dev.converge.benchmarks.internal.ShardedRun;
import dev.converge.benchmarks.internal.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/bench}: drives an operator (the example AppDeployment operator, or any operator given
 * as a command and its CRD) against a local control plane, then the floor (the same Deployments and
 * Services written by a raw client at full concurrency) on a fresh one, and writes JSON, a markdown
 * table and PNG plots. With {@code --peer go}, the example's Go controller-runtime twin runs
 * between the two, measured as the operator is, so that the table compares Converge with what a Go
 * user would write.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Measures an AppDeployment operator against the floor on a local control plane.",
    sortOptions = false)
public final class BenchCommand implements Callable<Integer> {

  @Option(
      names = "--objects",
      split = ",",
      paramLabel = "N",
      defaultValue = "300",
      description =
          "AppDeployments per run; several sizes comma-separated. Default: ${DEFAULT-VALUE}.")
  List<Integer> objects;

  @Option(
      names = "--replicas",
      paramLabel = "R",
      defaultValue = "1",
      description =
          "Pods per AppDeployment; 0 measures the operator without pod work. Default: ${DEFAULT-VALUE}.")
  int replicas;

  @Option(
      names = "--operator-replicas",
      split = ",",
      paramLabel = "K",
      defaultValue = "1",
      description =
          "Replicas of the example operator, each its own JVM; above 1 they run --sharded with"
              + " identities of their own. Several comma-separated (e.g. 1,3) are each measured on"
              + " a fresh control plane and compared in <output>/sharded/: time until all Running,"
              + " CPU, peak RSS and heap after a full GC per replica, the sharder's share. Anything"
              + " but 1 runs only this comparison. Default: ${DEFAULT-VALUE}.")
  List<Integer> operatorReplicas;

  @Option(
      names = "--per-namespace",
      paramLabel = "K",
      defaultValue = "100",
      description = "AppDeployments per namespace. Default: ${DEFAULT-VALUE}.")
  int perNamespace;

  @Option(
      names = "--fanout",
      paramLabel = "F",
      defaultValue = "100",
      description =
          "ConfigMaps changed at once (each referenced by one AppDeployment). Default: ${DEFAULT-VALUE}.")
  int fanout;

  @Option(
      names = "--idle-seconds",
      paramLabel = "S",
      defaultValue = "60",
      description =
          "Seconds of idleness in which the operator's writes are counted. Default: ${DEFAULT-VALUE}.")
  int idleSeconds;

  @Option(
      names = "--restarts",
      paramLabel = "K",
      defaultValue = "1",
      description =
          "Times the operator is started again with every object in place; the table shows the"
              + " median restart and each one's time from caches synced to first reconcile."
              + " Default: ${DEFAULT-VALUE}.")
  int restarts;

  @Option(
      names = "--mode",
      paramLabel = "MODE",
      defaultValue = "both",
      description = "operator, floor or both. Default: ${DEFAULT-VALUE}.")
  String mode;

  @Option(
      names = "--dry-run-pass",
      description =
          "Instead of the operator and the floor: converge with the example, give every"
              + " AppDeployment a new image, and measure one dry-run pass of the example (time,"
              + " requests, heap).")
  boolean dryRunPass;

  @Option(
      names = "--operator-command",
      paramLabel = "CMD",
      description =
          "The operator's command line, split at spaces; {kubeconfig} and {port} are"
              + " replaced, and {cds} as --startup-archive says. Default: the example operator as"
              + " a JVM with -Xmx512m.")
  String operatorCommand;

  @Option(
      names = "--controller-manager-qps",
      paramLabel = "Q",
      defaultValue = "200",
      description =
          "Requests per second the controller manager may send (bursts of twice that);"
              + " its own default of 20 would make it, not the operator, the bottleneck at thousands"
              + " of objects. 0 keeps its default. Default: ${DEFAULT-VALUE}.")
  int controllerManagerQps;

  @Option(
      names = "--profile",
      defaultValue = "false",
      description =
          "Record a JDK Flight Recorder profile of the example operator into"
              + " <output>/logs/<size>/operator.jfr and a summary of where its CPU went into"
              + " <output>/n<N>-r<R>-profile.md.")
  boolean profile;

  @Option(
      names = "--startup-archive",
      defaultValue = "false",
      description =
          "Start the operator once on the empty cluster to write a class-data-sharing archive of"
              + " the classes its start loads (-XX:ArchiveClassesAtExit; on JDK 25 or later its"
              + " ahead-of-time cache, -XX:AOTCacheOutput), then run every measured start with it"
              + " (-XX:SharedArchiveFile, -XX:AOTCache). The example's image writes its archive at"
              + " build time, with no API server (example-operator/startup-archive.sh). The"
              + " argument {cds} of --operator-command becomes these options; without this flag"
              + " it is dropped.")
  boolean startupArchive;

  @Option(
      names = "--java",
      paramLabel = "PATH",
      description =
          "The java launcher that runs the example operator (default: the one running the"
              + " benchmark), e.g. a newer JDK's bin/java. From JDK 25 on, --startup-archive"
              + " trains and maps its ahead-of-time cache (-XX:AOTCacheOutput, -XX:AOTCache)"
              + " instead of a class-data-sharing archive.")
  Path java;

  @Option(
      names = "--jvm-option",
      paramLabel = "OPTION",
      description =
          "An option for the example operator's JVM, before its main class (repeat for more),"
              + " e.g. --jvm-option=-XX:+UseSerialGC.")
  List<String> jvmOptions = new java.util.ArrayList<>();

  @Option(
      names = "--operator-option",
      paramLabel = "ARG",
      description =
          "An argument for the example operator, after its own (repeat for more),"
              + " e.g. --operator-option=--workers=32.")
  List<String> operatorOptions = new java.util.ArrayList<>();

  @Option(
      names = "--peer",
      paramLabel = "PEER",
      description =
          "go: also run the example's Go controller-runtime twin (benchmarks/peer-go, built into"
              + " the cache when its sources changed) after the operator, on a fresh control plane"
              + " with the same workload, and show Converge/Go ratios. Default: none.")
  String peer;

  @Option(
      names = "--peer-option",
      paramLabel = "ARG",
      description =
          "An argument for the Go twin, after its own (repeat for more), e.g."
              + " --peer-option=--workers=32.")
  List<String> peerOptions = new java.util.ArrayList<>();

  @Option(
      names = "--crd",
      paramLabel = "FILE",
      description =
          "The operator's CRD for apps.converge.dev/v1 AppDeployment. Default: the example's.")
  Path crd;

  @Option(
      names = "--ready-url",
      paramLabel = "URL",
      defaultValue = "http://127.0.0.1:{port}/readyz",
      description = "200 once the operator's caches are synced. Default: ${DEFAULT-VALUE}.")
  String readyUrl;

  @Option(
      names = "--metrics-url",
      paramLabel = "URL",
      defaultValue = "http://127.0.0.1:{port}/metrics",
      description = "The operator's Prometheus metrics. Default: ${DEFAULT-VALUE}.")
  String metricsUrl;

  @Option(
      names = "--reconcile-metric",
      paramLabel = "NAME",
      defaultValue = "converge_reconcile_seconds_count",
      description = "Counter of reconciles in those metrics. Default: ${DEFAULT-VALUE}.")
  String reconcileMetric;

  @Option(
      names = "--image",
      paramLabel = "IMAGE",
      defaultValue = "registry.example.com/bench/app:1.0",
      description =
          "spec.image of every AppDeployment (kwok runs no container). Default: ${DEFAULT-VALUE}.")
  String image;

  @Option(
      names = "--output",
      paramLabel = "DIR",
      defaultValue = "benchmarks/results",
      description = "Where JSON, tables and plots go. Default: ${DEFAULT-VALUE}.")
  Path output;

  @Option(
      names = "--readme",
      paramLabel = "FILE",
      description =
          "A README whose section between <!-- results:start --> and <!-- results:end -->"
              + " is replaced by the summary of every run in the output folder.")
  Path readme;

  @Option(
      names = "--note",
      paramLabel = "TEXT",
      defaultValue = "",
      description =
          "Added to the machine line of the results, e.g. whether the machine was otherwise idle.")
  String note;

  /**
   * Runs the benchmark. A failure ends {@code main} with an exception (the JVM then exits with
   * status 1); the process is never ended from here, so the command can also run inside another
   * program.
   */
  public static void main(String[] args) {
    int code = new CommandLine(new BenchCommand()).execute(args);
    if (code != 0) {
      throw new IllegalStateException("bench: failed with exit code " + code + " (see above)");
    }
  }

  @Override
  public Integer call() throws IOException {
    if (!List.of("operator", "floor", "both").contains(mode)) {
      throw new CommandLine.ParameterException(
          new CommandLine(this), "--mode must be operator, floor or both, not '" + mode + "'");
    }
    if (operatorReplicas.stream().anyMatch(k -> k < 1)) {
      throw new CommandLine.ParameterException(
          new CommandLine(this), "--operator-replicas must be at least 1, not " + operatorReplicas);
    }
    if (!operatorReplicas.equals(List.of(1)) && (operatorCommand != null || dryRunPass)) {
      throw new CommandLine.ParameterException(
          new CommandLine(this),
          "--operator-replicas runs the example operator; it goes with neither --operator-command"
              + " nor --dry-run-pass");
    }
    if (peer != null && !peer.equals("go")) {
      throw new CommandLine.ParameterException(
          new CommandLine(this), "--peer must be go, not '" + peer + "'");
    }
    Optional<OperatorUnderTest> peerUnderTest =
        peer == null || mode.equals("floor")
            ? Optional.empty()
            : Optional.of(
                GoPeer.of(
                    GoPeer.build(output.resolve("logs").resolve("peer-go-build.log")),
                    peerOptions));
    if (controllerManagerQps > 0) {
      System.setProperty("converge.controller-manager.qps", Integer.toString(controllerManagerQps));
    }
    Reports reports = new Reports(output);
    for (int n : objects) {
      int namespaces = Math.max(1, (n + perNamespace - 1) / perNamespace);
      Workload workload = new Workload(n, namespaces, replicas, Math.min(fanout, n), image);
      Path workDir = output.resolve("logs").resolve(Reports.stem(n, replicas));
      Files.createDirectories(workDir);
      BenchSettings settings =
          new BenchSettings(
              workload,
              !mode.equals("floor"),
              !mode.equals("operator"),
              idleSeconds,
              operatorCommand == null
                  ? BenchSettings.exampleOperatorCommand(
                      Optional.ofNullable(java),
                      profile ? Optional.of(workDir) : Optional.empty(),
                      jvmOptions,
                      operatorOptions)
                  : Arrays.asList(operatorCommand.trim().split("\\s+")),
              Optional.ofNullable(crd),
              readyUrl,
              metricsUrl,
              reconcileMetric,
              workDir,
              restarts,
              startupArchive,
              peerUnderTest);
      String machine = machine();
      System.out.printf(
          "==> %d AppDeployments × %d replicas over %d namespaces; %s%n",
          n, replicas, namespaces, machine);
      if (!operatorReplicas.equals(List.of(1))) {
        ShardedRun sharded = new ShardedRun(settings, line -> System.out.println("    " + line));
        List<ShardedRun.Figures> runs = new ArrayList<>();
        for (int k : operatorReplicas) {
          System.out.printf("--> %d replica(s) of the operator%n", k);
          runs.add(sharded.measure(k));
        }
        System.out.println();
        System.out.println(ShardedRun.write(output.resolve("sharded"), machine, runs));
        continue;
      }
      BenchmarkRun run = new BenchmarkRun(settings, line -> System.out.println("    " + line));
      if (dryRunPass) {
        System.out.println("    " + run.dryRunPass().text());
        continue;
      }
      List<RunFigures> figures = new ArrayList<>();
      if (settings.runOperator()) {
        figures.add(run.operator());
      }
      if (settings.peer().isPresent()) {
        figures.add(run.peer());
      }
      if (settings.runFloor()) {
        figures.add(run.floor());
      }
      String table = reports.write(Reports.stem(n, replicas), machine, figures);
      Path jfr = workDir.resolve("operator.jfr");
      if (profile && Files.exists(jfr)) {
        String summary = ProfileSummary.of(jfr, "dev.converge", 15);
        Files.writeString(output.resolve(Reports.stem(n, replicas) + "-profile.md"), summary);
        System.out.println(summary);
      }
      System.out.println();
      System.out.println(table);
    }
    if (!operatorReplicas.equals(List.of(1))) {
      // the comparison of replicas writes its own files; the summary of the other runs stays
      System.out.println("results in " + output.resolve("sharded").toAbsolutePath());
      return 0;
    }
    String summary = reports.summarize();
    if (readme != null) {
      reports.updateReadme(readme, summary);
      System.out.println("results section of " + readme + " rewritten");
    }
    System.out.println("results in " + output.toAbsolutePath());
    return 0;
  }

  /** The machine a run happened on, with its load when it started. */
  private String machine() throws IOException {
    String cpu =
        Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
            .filter(l -> l.startsWith("model name"))
            .findFirst()
            .map(l -> l.substring(l.indexOf(':') + 1).trim())
            .orElse("unknown CPU");
    long memKib =
        Files.readAllLines(Path.of("/proc/meminfo")).stream()
            .filter(l -> l.startsWith("MemTotal:"))
            .findFirst()
            .map(l -> Long.parseLong(l.replaceAll("[^0-9]", "")))
            .orElse(0L);
    String load = Files.readString(Path.of("/proc/loadavg")).trim().split(" ", 2)[0];
    return String.format(
        "%d cores (%s), %.0f GiB, Java %s, controller manager %s, load average %s" + " at %s%s",
        Runtime.getRuntime().availableProcessors(),
        cpu,
        memKib / 1048576.0,
        System.getProperty("java.version"),
        controllerManagerQps > 0 ? controllerManagerQps + " requests/s" : "at its default rate",
        load,
        Instant.now().toString().substring(0, 16) + "Z",
        note.isBlank() ? "" : "; " + note);
  }
}
