package dev.converge.benchmarks.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What one benchmark size runs.
 *
 * @param operatorCommand the operator's command line; {@code {kubeconfig}}, {@code {port}} and
 *     {@code {name}} are replaced by the client kubeconfig, a free port and the start's name
 *     ({@code operator}, {@code operator-restart})
 * @param crd the operator's CRD file; empty for the example's
 * @param readyUrl readiness URL ({@code {port}} replaced); 200 means caches synced
 * @param metricsUrl Prometheus metrics URL of the operator ({@code {port}} replaced)
 * @param reconcileMetric the counter of reconciles in that text, summed over its samples
 * @param workDir where logs and the client kubeconfig go
 * @param restarts how many times the operator is started again with every object in place; the run
 *     reports the median restart and each one's time from caches synced to first reconcile
 * @param startupArchive whether a training start on the empty cluster writes a class-data-sharing
 *     archive that every measured start then maps; the command's {@value #CDS} argument becomes the
 *     JVM option for either, and is dropped without the archive
 * @param peer another operator of the same CRD measured the same way on a fresh control plane after
 *     the operator (the Go controller-runtime twin, {@link GoPeer}); empty for none
 */
public record BenchSettings(
    Workload workload,
    boolean runOperator,
    boolean runFloor,
    int idleSeconds,
    List<String> operatorCommand,
    Optional<Path> crd,
    String readyUrl,
    String metricsUrl,
    String reconcileMetric,
    Path workDir,
    int restarts,
    boolean startupArchive,
    Optional<OperatorUnderTest> peer) {

  /** The argument of an operator command that stands for the class-data-sharing option. */
  public static final String CDS = "{cds}";

  public BenchSettings {
    if (restarts < 1) {
      throw new IllegalArgumentException("--restarts must be at least 1, not " + restarts);
    }
  }

  /**
   * The example operator as a child JVM with this JVM's class path less what its image leaves out
   * ({@link #imageJars}) and the options its image runs it with ({@code
   * example-operator/jvm.options}, found from the repository root or a module folder), 512 MiB of
   * heap at most, logging warnings only; with a Flight Recorder profile per start written into
   * {@code jfrFolder} when given ({@code {name}.jfr}: {@code operator.jfr}, {@code
   * operator-restart.jfr}), and {@code jvmOptions}; {@code operatorOptions} follow the operator's
   * own arguments.
   */
  public static List<String> exampleOperatorCommand(
      Optional<Path> jfrFolder, List<String> jvmOptions, List<String> operatorOptions) {
    return exampleOperatorCommand(Optional.empty(), jfrFolder, jvmOptions, operatorOptions);
  }

  /**
   * The example operator's command as {@link #exampleOperatorCommand(Optional, List, List)} makes
   * it, started by {@code java} when given (another JDK's launcher) instead of this JVM's.
   */
  public static List<String> exampleOperatorCommand(
      Optional<Path> java,
      Optional<Path> jfrFolder,
      List<String> jvmOptions,
      List<String> operatorOptions) {
    String launcher =
        java.map(Path::toString)
            .orElseGet(
                () ->
                    ProcessHandle.current()
                        .info()
                        .command()
                        .orElse(
                            Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    List<String> command = new java.util.ArrayList<>(List.of(launcher));
    Stream.of(
            Path.of("example-operator", "jvm.options"),
            Path.of("..", "example-operator", "jvm.options"))
        .filter(Files::isRegularFile)
        .findFirst()
        .ifPresent(options -> command.add("@" + options.toAbsolutePath().normalize()));
    command.addAll(List.of("-Xmx512m", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
    jfrFolder.ifPresent(
        folder ->
            command.add(
                "-XX:StartFlightRecording=settings=profile,filename="
                    + folder.resolve("{name}.jfr")));
    command.addAll(jvmOptions);
    command.add(CDS);
    command.addAll(
        List.of(
            "-cp",
            StartupArchive.forLauncher(launcher) == StartupArchive.AHEAD_OF_TIME_CACHE
                ? jarsOnly(imageJars(System.getProperty("java.class.path"), exampleLib()))
                : jarsFirst(imageJars(System.getProperty("java.class.path"), exampleLib())),
            "dev.converge.example.AppOperator",
            "--kubeconfig",
            "{kubeconfig}",
            "--http-port",
            "{port}"));
    command.addAll(operatorOptions);
    return List.copyOf(command);
  }

  /** The example's runtime libraries as its image gets them ({@code target/lib}), if built. */
  private static Optional<Path> exampleLib() {
    return Stream.of(
            Path.of("example-operator", "target", "lib"),
            Path.of("..", "example-operator", "target", "lib"))
        .filter(Files::isDirectory)
        .findFirst();
  }

  /**
   * The class path without the jars the example's image leaves out: only the example's own jar and
   * those {@code lib} holds (its runtime dependencies) stay, so the operator does not open the
   * benchmark's and the tests' libraries (the JVM keeps each open jar's directory in its heap). The
   * class path as it is when there is no {@code lib}; folders are kept.
   */
  static String imageJars(String classPath, Optional<Path> lib) {
    if (lib.isEmpty()) {
      return classPath;
    }
    java.util.Set<String> runtime;
    try (Stream<Path> jars = Files.list(lib.get())) {
      runtime =
          jars.map(jar -> jar.getFileName().toString())
              .collect(java.util.stream.Collectors.toSet());
    } catch (java.io.IOException e) {
      return classPath;
    }
    return Stream.of(classPath.split(java.io.File.pathSeparator))
        .filter(
            entry -> {
              Path path = Path.of(entry);
              String name = path.getFileName() == null ? "" : path.getFileName().toString();
              return Files.isDirectory(path)
                  || runtime.contains(name)
                  || name.startsWith("converge-example-operator-");
            })
        .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
  }

  /**
   * The class path with its folders after its jars: a class-data-sharing archive takes classes from
   * jars only, and the JVM refuses to write one when a folder with classes precedes them.
   */
  static String jarsFirst(String classPath) {
    List<String> entries = List.of(classPath.split(java.io.File.pathSeparator));
    return Stream.concat(
            entries.stream().filter(e -> !Files.isDirectory(Path.of(e))),
            entries.stream().filter(e -> Files.isDirectory(Path.of(e))))
        .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
  }

  /**
   * The class path's jars alone: a JVM refuses to write or map an ahead-of-time cache when a folder
   * of its class path holds classes (the benchmark's own; the example comes from jars).
   */
  static String jarsOnly(String classPath) {
    return Stream.of(classPath.split(java.io.File.pathSeparator))
        .filter(e -> !Files.isDirectory(Path.of(e)))
        .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
  }

  /** The operator under test, named {@code operator} in the results. */
  public OperatorUnderTest operator() {
    return new OperatorUnderTest(
        "operator", operatorCommand, readyUrl, metricsUrl, reconcileMetric, startupArchive, true);
  }
}
