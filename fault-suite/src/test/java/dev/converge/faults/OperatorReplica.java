package dev.converge.faults;

import dev.converge.example.AppOperator;
import dev.converge.testing.LaunchedProcess;
import dev.converge.testing.ProcessLauncher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One replica of the AppDeployment operator as its own JVM, run exactly as a user runs it (its
 * command line, its kubeconfig), so that it can be killed with SIGKILL at any instant.
 */
final class OperatorReplica implements AutoCloseable {

  private static final Pattern WORKERS_ALIVE =
      Pattern.compile("^converge_workers_alive\\{[^}]*\\} ([0-9.]+)$", Pattern.MULTILINE);
  private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

  private final String name;
  private final Path kubeconfig;
  private final String namespace;
  private final String leaseNamespace;
  private final Path log;
  private final List<String> extraArgs;
  private String logLevel = "debug";
  private int port;
  private LaunchedProcess process;
  private int starts;

  OperatorReplica(String name, Path kubeconfig, String namespace, String leaseNamespace, Path log) {
    this(name, kubeconfig, namespace, leaseNamespace, log, List.of());
  }

  /** A replica whose command line ends with {@code extraArgs} (e.g. the election's timings). */
  OperatorReplica(
      String name,
      Path kubeconfig,
      String namespace,
      String leaseNamespace,
      Path log,
      List<String> extraArgs) {
    this.extraArgs = List.copyOf(extraArgs);
    this.name = name;
    this.kubeconfig = kubeconfig;
    this.namespace = namespace;
    this.leaseNamespace = leaseNamespace;
    this.log = log;
  }

  String name() {
    return name;
  }

  Path log() {
    return log;
  }

  /** The size of the replica's log so far, in bytes (0 before anything was logged). */
  long logSize() {
    try {
      return Files.exists(log) ? Files.size(log) : 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The level the replica logs at from its next start: {@code debug} unless set (every level is
   * scanned for secrets by the suites that read the logs); a run of thousands of objects that reads
   * none of it may ask for {@code info}, since writing every event costs the replica CPU.
   */
  synchronized OperatorReplica logLevel(String level) {
    this.logLevel = java.util.Objects.requireNonNull(level, "level");
    return this;
  }

  synchronized void start() {
    if (process != null) {
      process.close(); // the previous run, killed or ended: nothing of it stays behind
    }
    port = freePort();
    try {
      starts++;
      Files.writeString(
          log,
          "=== start " + starts + " of " + name + "\n",
          java.nio.file.StandardOpenOption.CREATE,
          java.nio.file.StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the log of operator replica " + name, e);
    }
    process =
        ProcessLauncher.java(AppOperator.class)
            .name(name)
            .jvmOptions(
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                // everything the operator logs, at every level, is scanned for secrets afterwards
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=" + logLevel,
                "-Dorg.slf4j.simpleLogger.showDateTime=true")
            .args(
                "--kubeconfig",
                kubeconfig.toString(),
                "--namespace",
                namespace,
                "--leader-elect",
                "--leader-election-namespace",
                leaseNamespace,
                "--http-port",
                Integer.toString(port))
            .args(extraArgs)
            // the leader-election identity is the host name and a random suffix: the replica's
            // name in the Lease's holderIdentity tells the suite which replica holds it
            .env("HOSTNAME", name)
            .log(log)
            .start();
  }

  /**
   * SIGKILL, as the kernel's OOM killer or a node failure would.
   *
   * @return the process's exit status as the JVM reports it (137 = 128 + SIGKILL), or -1 when there
   *     was no process or it did not end within 30 s
   */
  synchronized int kill() {
    return process == null ? -1 : process.kill();
  }

  /** True when {@code leaseHolder} (a Lease's holderIdentity) is an identity of this replica. */
  boolean holds(String leaseHolder) {
    return leaseHolder.startsWith(name + "-");
  }

  /**
   * SIGSTOP: every thread of the replica stops where it is, as in a paused container or VM, a long
   * stop-the-world pause, or a host that stops scheduling it; its clocks keep running.
   */
  void freeze() {
    signal("STOP");
  }

  /** SIGCONT after {@link #freeze()}: the replica carries on where it stopped. */
  void resume() {
    signal("CONT");
  }

  private void signal(String signal) {
    LaunchedProcess running;
    synchronized (this) {
      if (process == null || !process.isAlive()) {
        throw new IllegalStateException(name + " is not running");
      }
      running = process;
    }
    if (signal.equals("STOP")) {
      running.pause();
    } else {
      running.resume();
    }
  }

  /** The replica's {@code /metrics} text, or null when it does not answer. */
  String metrics() {
    return get("/metrics");
  }

  /**
   * Asks the replica's JVM for a full garbage collection ({@code jcmd GC.run}) and returns the heap
   * in use after it ({@code jcmd GC.heap_info}, Metaspace left out), in bytes; -1 when the replica
   * is not running or {@code jcmd} gives no answer.
   */
  long heapAfterFullGcBytes() {
    long pid;
    synchronized (this) {
      if (process == null || !process.isAlive()) {
        return -1;
      }
      pid = process.pid();
    }
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    ProcessLauncher.Finished gc =
        ProcessLauncher.command(List.of(jcmd.toString(), Long.toString(pid), "GC.run"))
            .run(Duration.ofSeconds(60));
    if (gc.exitCode() != 0) {
      return -1;
    }
    ProcessLauncher.Finished info =
        ProcessLauncher.command(List.of(jcmd.toString(), Long.toString(pid), "GC.heap_info"))
            .run(Duration.ofSeconds(60));
    if (info.exitCode() != 0) {
      return -1;
    }
    long usedKib = 0;
    for (String line : info.output().lines().toList()) {
      if (line.contains("Metaspace") || line.contains("class space")) {
        continue;
      }
      Matcher m = HEAP_USED.matcher(line);
      if (m.find()) {
        usedKib += Long.parseLong(m.group(1));
      }
    }
    return usedKib > 0 ? usedKib * 1024 : -1;
  }

  synchronized boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** Worker loops alive, from /metrics: above zero only while this replica leads. */
  int workersAlive() {
    String metrics = get("/metrics");
    if (metrics == null) {
      return 0;
    }
    Matcher m = WORKERS_ALIVE.matcher(metrics);
    int sum = 0;
    while (m.find()) {
      sum += (int) Double.parseDouble(m.group(1));
    }
    return sum;
  }

  /** False only when the replica answers /healthz with "not ok" (a running but dead operator). */
  boolean reportsLive() {
    String body = get("/healthz");
    return body == null || !body.startsWith("not ok");
  }

  /** What the kubelet does when the liveness probe fails: kill the container, start it again. */
  synchronized void restart() {
    kill();
    start();
  }

  /** The /readyz answer (body), or empty text when the replica does not answer. */
  String readiness() {
    String body = get("/readyz");
    return body == null ? "" : body;
  }

  /**
   * The HTTP status of {@code GET /readyz} (200 ready, 503 not ready), or -1 when the replica does
   * not answer.
   */
  int readyStatus() {
    int current;
    synchronized (this) {
      if (process == null || !process.isAlive()) {
        return -1;
      }
      current = port;
    }
    try {
      return HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + current + "/readyz"))
                  .timeout(Duration.ofSeconds(1))
                  .build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private String get(String path) {
    int current;
    synchronized (this) {
      if (process == null || !process.isAlive()) {
        return null;
      }
      current = port;
    }
    try {
      HttpResponse<String> response =
          HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + current + path))
                  .timeout(Duration.ofSeconds(1))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return response.body();
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    stop();
  }

  /**
   * Stops the operator gracefully (SIGTERM), forcibly after 40 s; nothing when it is not running.
   */
  public synchronized void stop() {
    if (process != null) {
      process.stop(Duration.ofSeconds(40));
      process.close();
    }
  }
}
