package dev.converge.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Starts a child process for a test: most often a JVM that runs an operator the way its users run
 * it (its own command line, its own process that a test can kill or freeze), or a command line tool
 * such as kubectl. The child's output goes to a log file the test can read when it fails, and the
 * process (with every process it started) is killed when the test closes it or the test JVM ends,
 * so that no operator outlives its test.
 *
 * <pre>{@code
 * try (LaunchedProcess operator =
 *     ProcessLauncher.java(MyOperator.class)
 *         .jvmOptions("-Xmx256m")
 *         .args("--kubeconfig", cluster.kubeconfig().toString())
 *         .log(dir.resolve("operator.log"))
 *         .start()) {
 *   operator.awaitReady("ready", Duration.ofSeconds(60), () -> readyz() == 200);
 *   ...
 * }
 * Finished get = ProcessLauncher.command(kubectl, "get", "pods").run(Duration.ofSeconds(60));
 * }</pre>
 */
public final class ProcessLauncher {

  private final String mainClass;
  private final Path jar;
  private final List<String> command;
  private String classPath = System.getProperty("java.class.path");
  private final List<String> jvmOptions = new ArrayList<>();
  private final List<String> args = new ArrayList<>();
  private final Map<String, String> environment = new LinkedHashMap<>();
  private Path directory;
  private Path log;
  private Path errorLog;
  private String name;

  private ProcessLauncher(String mainClass, Path jar, List<String> command, String name) {
    this.mainClass = mainClass;
    this.jar = jar;
    this.command = command;
    this.name = name;
  }

  /**
   * The {@code java} executable of the JVM running the test, so that a child runs on the same Java
   * as the test whatever the {@code PATH} says.
   *
   * @return the path of {@code bin/java} under {@code java.home}
   */
  public static Path javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  /**
   * A JVM running {@code mainClass}, on the test's own class path unless {@link #classPath}.
   *
   * @param mainClass the fully qualified name of the class whose {@code main} runs
   * @return a launcher named after the class's simple name
   * @throws IllegalArgumentException if {@code mainClass} is null or blank
   */
  public static ProcessLauncher java(String mainClass) {
    if (mainClass == null || mainClass.isBlank()) {
      throw new IllegalArgumentException("a Java process needs a main class");
    }
    return new ProcessLauncher(
        mainClass, null, null, mainClass.substring(mainClass.lastIndexOf('.') + 1));
  }

  /**
   * A JVM running the main method of {@code mainClass}.
   *
   * @param mainClass the class whose {@code main} runs, on the test's class path
   * @return a launcher named after the class's simple name
   */
  public static ProcessLauncher java(Class<?> mainClass) {
    return java(mainClass.getName());
  }

  /**
   * A JVM running an executable jar ({@code java -jar}).
   *
   * @param jar the jar, whose manifest names the main class and the class path
   * @return a launcher named after the jar's file name
   */
  public static ProcessLauncher jar(Path jar) {
    Objects.requireNonNull(jar, "jar");
    return new ProcessLauncher(null, jar, null, jar.getFileName().toString());
  }

  /**
   * Any command line: the program and its arguments.
   *
   * @param command the program (a path, or a name looked up on the {@code PATH}) and its arguments
   * @return a launcher named after the program's file name
   * @throws IllegalArgumentException if {@code command} is null or empty
   */
  public static ProcessLauncher command(List<String> command) {
    if (command == null || command.isEmpty()) {
      throw new IllegalArgumentException("a command needs at least the program to run");
    }
    return new ProcessLauncher(
        null, null, List.copyOf(command), Path.of(command.get(0)).getFileName().toString());
  }

  /**
   * Any command line: the program and its arguments.
   *
   * @param command the program (a path, or a name looked up on the {@code PATH}) and its arguments
   * @return a launcher named after the program's file name
   * @throws IllegalArgumentException if {@code command} is empty
   */
  public static ProcessLauncher command(String... command) {
    return command(List.of(command));
  }

  /**
   * The class path of a Java process (a path list, entries may end in {@code *}).
   *
   * @param classPath the class path, as for {@code java -cp}
   * @return this launcher
   * @throws IllegalStateException for a command line or a jar, which take no class path
   */
  public ProcessLauncher classPath(String classPath) {
    requireJava("a class path");
    if (jar != null) {
      throw new IllegalStateException(name + ": java -jar takes its class path from the jar");
    }
    this.classPath = Objects.requireNonNull(classPath, "classPath");
    return this;
  }

  /**
   * Options for the JVM, before the main class: {@code -Xmx256m}, {@code -Dkey=value}.
   *
   * @param options the options, added after those given before
   * @return this launcher
   * @throws IllegalStateException for a command line, which is no JVM
   */
  public ProcessLauncher jvmOptions(String... options) {
    return jvmOptions(List.of(options));
  }

  /**
   * Options for the JVM, before the main class.
   *
   * @param options the options, added after those given before
   * @return this launcher
   * @throws IllegalStateException for a command line, which is no JVM
   */
  public ProcessLauncher jvmOptions(List<String> options) {
    requireJava("JVM options");
    jvmOptions.addAll(options);
    return this;
  }

  /**
   * Arguments after the main class, the jar or the command's own.
   *
   * @param arguments the arguments, added after those given before
   * @return this launcher
   */
  public ProcessLauncher args(String... arguments) {
    return args(List.of(arguments));
  }

  /**
   * Arguments after the main class, the jar or the command's own.
   *
   * @param arguments the arguments, added after those given before
   * @return this launcher
   */
  public ProcessLauncher args(List<String> arguments) {
    args.addAll(arguments);
    return this;
  }

  /**
   * An environment variable, added to (or replacing one of) the test JVM's environment.
   *
   * @param key the variable's name
   * @param value its value
   * @return this launcher
   */
  public ProcessLauncher env(String key, String value) {
    environment.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    return this;
  }

  /**
   * The working directory; the test JVM's unless set.
   *
   * @param directory the directory the process starts in
   * @return this launcher
   */
  public ProcessLauncher directory(Path directory) {
    this.directory = Objects.requireNonNull(directory, "directory");
    return this;
  }

  /**
   * The name in messages and in the shutdown hook; the main class, jar or program by default.
   *
   * @param name a name that tells this process from the test's others ("operator-2")
   * @return this launcher
   */
  public ProcessLauncher name(String name) {
    this.name = Objects.requireNonNull(name, "name");
    return this;
  }

  /**
   * The file the process's output is appended to (standard error too, unless {@link #errorLog});
   * without it, a new temporary file. What was in the file before stays, so that a process started
   * again writes after its previous run.
   *
   * @param file the log file; missing directories are created on start
   * @return this launcher
   */
  public ProcessLauncher log(Path file) {
    this.log = Objects.requireNonNull(file, "file");
    return this;
  }

  /**
   * A file of its own for standard error, for a test that tells one stream from the other.
   *
   * @param file the file standard error is appended to
   * @return this launcher
   */
  public ProcessLauncher errorLog(Path file) {
    this.errorLog = Objects.requireNonNull(file, "file");
    return this;
  }

  /**
   * The command line {@link #start()} runs.
   *
   * @return a new list: the program or {@code java} with its options, then the arguments
   */
  public List<String> commandLine() {
    List<String> line = new ArrayList<>();
    if (command != null) {
      line.addAll(command);
    } else {
      line.add(javaBinary().toString());
      line.addAll(jvmOptions);
      if (jar != null) {
        line.add("-jar");
        line.add(jar.toString());
      } else {
        line.add("-cp");
        line.add(classPath);
        line.add(mainClass);
      }
    }
    line.addAll(args);
    return line;
  }

  /**
   * Starts the process.
   *
   * @return the running process, to be closed by the test (which kills it and its descendants)
   * @throws UncheckedIOException naming the process, when it cannot be started or its log cannot be
   *     created
   */
  public LaunchedProcess start() {
    return launch();
  }

  /**
   * Starts the process and waits until it ends: for a tool whose output and exit code are the
   * test's subject. A temporary log made for the run is deleted once read.
   *
   * @param timeout how long the process may run; be generous, the machine may be loaded
   * @return its exit code and output
   * @throws IllegalStateException when the process has not ended within {@code timeout} (it is
   *     killed then), with the end of its output
   */
  public Finished run(Duration timeout) {
    boolean temporary = log == null;
    try (LaunchedProcess process = launch()) {
      OptionalInt exit = process.waitFor(timeout);
      if (exit.isEmpty()) {
        throw new IllegalStateException(
            name + " did not end within " + timeout + "; " + process.describe());
      }
      Finished finished = new Finished(exit.getAsInt(), process.output(), process.errors());
      if (temporary) {
        deleteQuietly(process.log());
      }
      return finished;
    }
  }

  private LaunchedProcess launch() {
    List<String> line = commandLine();
    Path output;
    try {
      output = log != null ? log : Files.createTempFile("converge-" + safe(name) + "-", ".log");
      if (output.toAbsolutePath().getParent() != null) {
        Files.createDirectories(output.toAbsolutePath().getParent());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the log file of " + name, e);
    }
    ProcessBuilder builder = new ProcessBuilder(line);
    builder.environment().putAll(environment);
    if (directory != null) {
      builder.directory(directory.toFile());
    }
    builder.redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
    if (errorLog != null) {
      builder.redirectError(ProcessBuilder.Redirect.appendTo(errorLog.toFile()));
    } else {
      builder.redirectErrorStream(true);
    }
    try {
      return new LaunchedProcess(name, builder.start(), output, errorLog);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + " (" + line + ")", e);
    }
  }

  private void requireJava(String what) {
    if (command != null) {
      throw new IllegalStateException(
          name + " is a command line, not a Java process: it takes no " + what);
    }
  }

  private static String safe(String name) {
    return name.replaceAll("[^A-Za-z0-9_.-]", "_");
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // a temporary file left behind: the operating system's temporary folder is cleaned anyway
      file.toFile().deleteOnExit();
    }
  }

  /**
   * A process that ran to its end.
   *
   * @param exitCode its exit code (128 + the signal's number when a signal ended it)
   * @param output what it wrote to standard output (and standard error unless kept apart)
   * @param errors what it wrote to standard error when {@link #errorLog} kept it apart, else empty
   */
  public record Finished(int exitCode, String output, String errors) {}
}
