package dev.converge.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Child JVMs and commands as a test starts, watches, signals and ends them. */
class ProcessLauncherTest {

  private static final Duration WAIT = Duration.ofSeconds(60);

  private static ProcessLauncher child(String... args) {
    return ProcessLauncher.java(LauncherChild.class).jvmOptions("-Xmx32m").args(args);
  }

  /** The process state letter of /proc/<pid>/stat: R, S, T (stopped), Z. */
  private static String state(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  }

  /** Ended: no such process, or a zombie its parent has not collected yet. */
  private static boolean gone(long pid) {
    try {
      return ProcessHandle.of(pid).isEmpty() || state(pid).equals("Z");
    } catch (IOException noLongerThere) {
      return true;
    }
  }

  @Test
  void aJavaMainRunsOnTheTestsClassPathWithItsArgumentsAndEnvironment(@TempDir Path dir) {
    ProcessLauncher.Finished finished =
        child("echo", "hello")
            .env("LAUNCHER_TEST", "from-env")
            .log(dir.resolve("out.log"))
            .errorLog(dir.resolve("err.log"))
            .run(WAIT);

    assertThat(finished.exitCode()).isZero();
    assertThat(finished.output()).isEqualTo("out hello from-env\n");
    assertThat(finished.errors()).isEqualTo("err hello\n");
  }

  @Test
  void theCommandLineIsTheRunningJvmsJavaThenOptionsClassPathMainClassAndArguments() {
    assertThat(child("echo", "x").commandLine())
        .containsExactly(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx32m",
            "-cp",
            System.getProperty("java.class.path"),
            LauncherChild.class.getName(),
            "echo",
            "x");
  }

  @Test
  void aCommandsOutputAndExitCodeComeBack() {
    ProcessLauncher.Finished finished =
        ProcessLauncher.command("sh", "-c", "echo hi; exit 3").run(WAIT);

    assertThat(finished.exitCode()).isEqualTo(3);
    assertThat(finished.output()).isEqualTo("hi\n");
  }

  @Test
  void waitingForReadinessEndsWithTheOutputWhenTheProcessExits(@TempDir Path dir) {
    try (LaunchedProcess process = child("exit", "7").log(dir.resolve("exit.log")).start()) {
      assertThatThrownBy(() -> process.awaitReady("ready", WAIT, () -> false))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("LauncherChild ended before ready")
          .hasMessageContaining("exit code 7")
          .hasMessageContaining("giving up");
      assertThat(process.exitCode()).hasValue(7);
    }
  }

  @Test
  void sigtermLetsTheJvmShutDownGracefullyAndSigkillDoesNot(@TempDir Path dir) {
    Pattern port = Pattern.compile("listening on :(\\d+)");
    try (LaunchedProcess graceful = child("serve", "8080").log(dir.resolve("a.log")).start()) {
      MatchResult match = graceful.awaitOutput(port, WAIT);
      assertThat(match.group(1)).isEqualTo("8080");

      assertThat(graceful.stop(WAIT)).isEqualTo(143); // 128 + SIGTERM
      assertThat(graceful.output()).contains("graceful shutdown");
    }
    try (LaunchedProcess killed = child("serve", "8081").log(dir.resolve("b.log")).start()) {
      killed.awaitOutput(port, WAIT);

      assertThat(killed.kill()).isEqualTo(137); // 128 + SIGKILL
      assertThat(killed.output()).doesNotContain("graceful shutdown");
    }
  }

  @Test
  void sigstopFreezesTheProcessAndSigcontLetsItGoOn(@TempDir Path dir) {
    try (LaunchedProcess process = child("serve", "1").log(dir.resolve("c.log")).start()) {
      process.awaitOutput(Pattern.compile("listening"), WAIT);

      process.pause();
      await().atMost(WAIT).until(() -> state(process.pid()).equals("T"));

      process.resume();
      await().atMost(WAIT).until(() -> !state(process.pid()).equals("T"));
      assertThat(process.isAlive()).isTrue();
    }
  }

  @Test
  void closeKillsTheProcessAndEveryProcessItStarted(@TempDir Path dir) {
    long grandchild;
    long pid;
    try (LaunchedProcess parent = child("parent").log(dir.resolve("d.log")).start()) {
      pid = parent.pid();
      grandchild =
          Long.parseLong(parent.awaitOutput(Pattern.compile("child (\\d+)"), WAIT).group(1));
      assertThat(ProcessHandle.of(grandchild)).isPresent();
    }
    await().atMost(WAIT).until(() -> gone(grandchild) && gone(pid));
  }
}
