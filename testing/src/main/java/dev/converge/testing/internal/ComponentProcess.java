package dev.converge.testing.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One control-plane component running as a child process, its output in a log file.
 *
 * <p>The binary runs under a small shell watchdog that holds a pipe from this JVM: when the JVM
 * goes away for any reason (even {@code kill -9}), the pipe closes and the watchdog stops the
 * component, so a crashed test run leaves no etcd or API server behind.
 */
public final class ComponentProcess implements AutoCloseable {

  private static final String WATCHDOG =
      """
      "$@" </dev/null & child=$!
      trap 'kill -TERM $child 2>/dev/null; wait $child; exit 143' TERM INT
      while kill -0 $child 2>/dev/null; do
        read -r -t 1 _; status=$?
        if [ $status -le 128 ]; then break; fi
      done
      kill -TERM $child 2>/dev/null
      wait $child
      """;

  private final String name;
  private final Path binary;
  private final List<String> args;
  private final Process process;
  private final OutputStream lifeline;
  private final Path log;

  private ComponentProcess(String name, Path binary, List<String> args, Process process, Path log) {
    this.name = name;
    this.binary = binary;
    this.args = List.copyOf(args);
    this.process = process;
    this.lifeline = process.getOutputStream();
    this.log = log;
  }

  /** Starts {@code binary args...}, appending stdout and stderr to {@code log}. */
  public static ComponentProcess start(String name, Path binary, List<String> args, Path log) {
    return start(
        name,
        binary,
        args,
        log,
        java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.TRUNCATE_EXISTING,
        java.nio.file.StandardOpenOption.WRITE);
  }

  private static ComponentProcess start(
      String name, Path binary, List<String> args, Path log, java.nio.file.OpenOption... header) {
    List<String> command =
        new ArrayList<>(List.of("bash", "-c", WATCHDOG, name, binary.toString()));
    command.addAll(args);
    try {
      Files.writeString(log, "$ " + binary + " " + String.join(" ", args) + "\n", header);
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      return new ComponentProcess(name, binary, args, process, log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + " (" + binary + ")", e);
    }
  }

  /**
   * Kills the component with SIGKILL, as a crash would, and starts the same command again,
   * appending to the same log. The caller waits for readiness.
   */
  public ComponentProcess restart() {
    kill();
    return start(
        name,
        binary,
        args,
        log,
        java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.APPEND,
        java.nio.file.StandardOpenOption.WRITE);
  }

  /** SIGKILL to the component and its watchdog; returns once both are gone. */
  public void kill() {
    List<ProcessHandle> children = process.descendants().toList();
    children.forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
      for (ProcessHandle child : children) {
        child.onExit().get(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException(name + " did not exit after SIGKILL", e);
    }
  }

  public String name() {
    return name;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public Path log() {
    return log;
  }

  /** The last lines of the component's log, for error messages. */
  public String logTail(int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(log " + log + " unreadable: " + e.getMessage() + ")";
    }
  }

  /** Asks the component to stop (SIGTERM), then kills it if it has not stopped in ten seconds. */
  @Override
  public void close() {
    try {
      lifeline.close();
    } catch (IOException ignored) {
      // the watchdog notices the closed pipe or the signal below either way
    }
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
