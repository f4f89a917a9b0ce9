package dev.converge.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;

/**
 * A child process started by {@link ProcessLauncher}: its pid and exit code, its output (in a log
 * file), a wait for readiness that gives up as soon as the process has ended, and the signals a
 * fault test sends (SIGTERM for a graceful stop, SIGKILL as the OOM killer or a lost node, SIGSTOP
 * and SIGCONT as a paused container or a long pause). {@link #close()} kills it and every process
 * it started, so that none outlives the test.
 */
public final class LaunchedProcess implements AutoCloseable {

  /** How much of the output's end a failure message quotes. */
  private static final int TAIL_LINES = 40;

  private final String name;
  private final Process process;
  private final Path log;
  private final Path errorLog;
  private final Thread killOnExit;

  LaunchedProcess(String name, Process process, Path log, Path errorLog) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.errorLog = errorLog;
    // an interrupted test run (Ctrl-C, a killed build) leaves no child behind
    this.killOnExit = new Thread(this::killTree, "kill " + name + " " + process.pid());
    Runtime.getRuntime().addShutdownHook(killOnExit);
  }

  /**
   * The name in messages: the main class, the jar or the program unless set.
   *
   * @return the process's name
   */
  public String name() {
    return name;
  }

  /**
   * The process id.
   *
   * @return the operating system's id of the process
   */
  public long pid() {
    return process.pid();
  }

  /**
   * The process, for what this class does not offer (its descendants, its start time).
   *
   * @return the JDK's handle of the process
   */
  public ProcessHandle handle() {
    return process.toHandle();
  }

  /**
   * True until the process has ended.
   *
   * @return whether the process is still running
   */
  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * The exit code once the process has ended (128 + the signal's number for a signal).
   *
   * @return the exit code; empty while the process runs
   */
  public OptionalInt exitCode() {
    return process.isAlive() ? OptionalInt.empty() : OptionalInt.of(process.exitValue());
  }

  /**
   * The log file: standard output, and standard error unless it has a file of its own.
   *
   * @return the file's path, which stays after the process has ended
   */
  public Path log() {
    return log;
  }

  /**
   * Everything written to the log file so far (its earlier content included).
   *
   * @return the file's text; bytes that are not UTF-8 are replaced, and a missing file reads as
   *     empty
   */
  public String output() {
    return read(log);
  }

  /**
   * What was written to the separate standard error file so far; empty without one.
   *
   * @return the standard error file's text
   */
  public String errors() {
    return errorLog == null ? "" : read(errorLog);
  }

  /**
   * Waits until {@code condition} holds, checking it every 200 ms; the readiness of a process is
   * whatever the test can observe (an HTTP probe, an object in the cluster, a line of output).
   *
   * @param what what is awaited, for the failure message ("serving probes")
   * @param timeout how long to wait at most; be generous, the machine may be loaded
   * @param condition the check, true once the process is ready
   * @throws IllegalStateException as soon as the process has ended, or when {@code timeout} has
   *     passed, with the exit code and the end of the process's output
   */
  public void awaitReady(String what, Duration timeout, BooleanSupplier condition) {
    try {
      Awaitility.await(name + ": " + what)
          .atMost(timeout)
          .pollInterval(Duration.ofMillis(200))
          .failFast(name + " ended", () -> !process.isAlive())
          .until(condition::getAsBoolean);
    } catch (TerminalFailureException e) {
      // the process may have made the condition true just before it ended
      if (condition.getAsBoolean()) {
        return;
      }
      throw new IllegalStateException(name + " ended before " + what + "; " + describe(), e);
    } catch (ConditionTimeoutException e) {
      throw new IllegalStateException(
          name + " not " + what + " within " + timeout + "; " + describe(), e);
    }
  }

  /**
   * Waits until a line of the output matches {@code pattern} and returns the first match: for a
   * process that says where it listens ("probes on :43121").
   *
   * @param pattern what to find in the output, searched anywhere in it
   * @param timeout how long to wait at most
   * @return the first match, with its groups
   * @throws IllegalStateException as {@link #awaitReady} does
   */
  public MatchResult awaitOutput(Pattern pattern, Duration timeout) {
    AtomicReference<MatchResult> found = new AtomicReference<>();
    awaitReady(
        "output matching /" + pattern + "/",
        timeout,
        () -> {
          Matcher m = pattern.matcher(output());
          if (m.find()) {
            found.set(m.toMatchResult());
            return true;
          }
          return false;
        });
    return found.get();
  }

  /**
   * Waits up to {@code timeout} for the process to end.
   *
   * @param timeout how long to wait at most
   * @return its exit code, or empty when it is still running
   */
  public OptionalInt waitFor(Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)
          ? OptionalInt.of(process.exitValue())
          : OptionalInt.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + name + " to end", e);
    }
  }

  /** SIGTERM: asks the process to shut down gracefully; returns at once. */
  public void terminate() {
    process.destroy();
  }

  /**
   * SIGTERM, then SIGKILL to the process and its descendants when it has not ended within {@code
   * grace}; nothing when it has already ended.
   *
   * @param grace how long the process may take to shut down after SIGTERM
   * @return the exit code, or -1 when it did not end even after SIGKILL
   */
  public int stop(Duration grace) {
    if (process.isAlive()) {
      process.destroy();
      if (waitFor(grace).isEmpty()) {
        return kill();
      }
    }
    return process.exitValue();
  }

  /**
   * SIGKILL to the process and its descendants, with no chance to clean up.
   *
   * @return the exit code (137 = 128 + SIGKILL), or the earlier one when the process had already
   *     ended, or -1 when it has not ended within 30 s
   */
  public int kill() {
    killTree();
    return waitFor(Duration.ofSeconds(30)).orElse(-1);
  }

  /**
   * SIGSTOP: every thread of the process stops where it is, as in a paused container or VM; its
   * clocks keep running.
   *
   * @throws IllegalStateException when the process has ended or the signal cannot be sent
   */
  public void pause() {
    signal("STOP");
  }

  /** SIGCONT after {@link #pause()}: the process carries on where it stopped. */
  public void resume() {
    signal("CONT");
  }

  /**
   * The process's state and the end of its output, for a failure message.
   *
   * @return the name, pid, state or exit code, and the last 40 lines of the log (and of the
   *     standard error file when there is one)
   */
  public String describe() {
    String state = process.isAlive() ? "still running" : "exit code " + process.exitValue();
    return name
        + " (pid "
        + process.pid()
        + ", "
        + state
        + "); the end of its output ("
        + log
        + "):\n"
        + tail(output())
        + (errorLog == null ? "" : "\nthe end of its standard error:\n" + tail(errors()));
  }

  /** Kills the process and its descendants (SIGKILL) and waits for it to end. */
  @Override
  public void close() {
    kill();
    try {
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } catch (IllegalStateException shuttingDown) {
      // the JVM is exiting: the hook runs anyway and finds nothing left to kill
    }
  }

  private void killTree() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  private void signal(String signal) {
    if (!process.isAlive()) {
      throw new IllegalStateException(
          "cannot send SIG" + signal + " to " + name + ": it has ended; " + describe());
    }
    ProcessLauncher.Finished kill =
        ProcessLauncher.command("kill", "-" + signal, Long.toString(process.pid()))
            .run(Duration.ofSeconds(10));
    if (kill.exitCode() != 0) {
      throw new IllegalStateException(
          "kill -" + signal + " " + process.pid() + " (" + name + ") failed: " + kill.output());
    }
  }

  private static String tail(String text) {
    List<String> lines = text.lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
  }

  private static String read(Path file) {
    try {
      // bytes that are not UTF-8 are replaced, never a reason to fail
      return Files.exists(file) ? new String(Files.readAllBytes(file), StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
