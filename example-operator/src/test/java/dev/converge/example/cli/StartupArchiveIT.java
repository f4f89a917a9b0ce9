package dev.converge.example.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentCrd;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.api.Phase;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up archive as the image builds and uses it: {@code startup-archive.sh} trains it with
 * no API server, from the packaged jars ({@code target/lib}, the module's jar, as the image's
 * {@code lib/}); the operator then starts with {@code -Xshare:on}, which ends the JVM at once when
 * the archive cannot be mapped, and reconciles on the real API server as without it.
 */
@ExtendWith(LocalClusterExtension.class)
class StartupArchiveIT {

  private static final Pattern PORT = Pattern.compile("probes and metrics on :(\\d+)");

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** The image's class path: every runtime dependency and the operator's jar, in one folder. */
  private static String imageClassPath(Path lib) throws Exception {
    Path target = Path.of("target");
    try (Stream<Path> jars = Files.list(target)) {
      Path operatorJar =
          jars.filter(p -> p.getFileName().toString().startsWith("converge-example-operator-"))
              .filter(p -> p.getFileName().toString().endsWith(".jar"))
              .filter(p -> !p.getFileName().toString().endsWith("-sources.jar"))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no operator jar in target/: run mvn package"));
      Files.createDirectories(lib);
      try (Stream<Path> deps = Files.list(target.resolve("lib"))) {
        for (Path dep : deps.toList()) {
          Files.copy(dep, lib.resolve(dep.getFileName()));
        }
      }
      Files.copy(operatorJar, lib.resolve(operatorJar.getFileName()));
    }
    return lib + File.separator + "*";
  }

  @Test
  void anArchiveTrainedWithoutAnApiServerIsMappedByTheOperatorsStart(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster, @TempDir Path dir)
      throws Exception {
    String classPath = imageClassPath(dir.resolve("lib"));
    Path options = Path.of("jvm.options").toAbsolutePath();
    Path archive = dir.resolve("app.jsa");

    ProcessBuilder training =
        new ProcessBuilder(
                "sh",
                Path.of("startup-archive.sh").toAbsolutePath().toString(),
                archive.toString(),
                options.toString(),
                classPath,
                "dev.converge.example.AppOperator",
                "--http-port=0")
            .redirectErrorStream(true);
    training.environment().put("TRAINING_SECONDS", "10");
    training.environment().put("PATH", Path.of(java()).getParent() + ":" + System.getenv("PATH"));
    Process trained = training.start();
    String trainingOutput =
        new String(trained.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(trained.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(trained.exitValue()).as(trainingOutput).isZero();
    assertThat(archive).isNotEmptyFile();

    AppDeploymentCrd.install(admin, Duration.ofSeconds(30));
    Process operator =
        new ProcessBuilder(
                List.of(
                    java(),
                    "@" + options,
                    "-Xshare:on",
                    "-XX:SharedArchiveFile=" + archive,
                    "-Xmx256m",
                    "-cp",
                    classPath,
                    "dev.converge.example.AppOperator",
                    "--kubeconfig",
                    cluster.kubeconfig().toString(),
                    "--namespace",
                    ns.name(),
                    "--http-port",
                    "0"))
            .redirectErrorStream(true)
            .start();
    try {
      StringBuilder output = new StringBuilder();
      CompletableFuture<Integer> port = new CompletableFuture<>();
      Thread reader =
          new Thread(
              () -> {
                try (BufferedReader lines =
                    new BufferedReader(
                        new InputStreamReader(operator.getInputStream(), StandardCharsets.UTF_8))) {
                  String line;
                  while ((line = lines.readLine()) != null) {
                    synchronized (output) {
                      output.append(line).append('\n');
                    }
                    Matcher m = PORT.matcher(line);
                    if (m.find()) {
                      port.complete(Integer.parseInt(m.group(1)));
                    }
                  }
                } catch (Exception e) {
                  port.completeExceptionally(e);
                }
                port.completeExceptionally(new AssertionError("the operator ended: " + output));
              });
      reader.setDaemon(true);
      reader.start();
      int probes = port.get(60, TimeUnit.SECONDS);
      HttpClient http = HttpClient.newHttpClient();
      await("ready")
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  http.send(
                              HttpRequest.newBuilder(
                                      URI.create("http://127.0.0.1:" + probes + "/readyz"))
                                  .build(),
                              HttpResponse.BodyHandlers.discarding())
                          .statusCode()
                      == 200);

      admin
          .resources(AppDeployment.class)
          .inNamespace(ns.name())
          .resource(
              AppDeployment.of(
                  ns.name(), "archived", new AppDeploymentSpec("nginx:1.27", 0, null, null)))
          .create();
      await("Running")
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                AppDeployment app =
                    admin
                        .resources(AppDeployment.class)
                        .inNamespace(ns.name())
                        .withName("archived")
                        .get();
                assertThat(app.getStatus()).isNotNull();
                assertThat(app.getStatus().phase()).isEqualTo(Phase.Running);
              });
      assertThat(admin.apps().deployments().inNamespace(ns.name()).withName("archived").get())
          .isNotNull();
      assertThat(operator.isAlive()).as("%s", output).isTrue();
    } finally {
      operator.destroy();
      if (!operator.waitFor(30, TimeUnit.SECONDS)) {
        operator.destroyForcibly();
      }
    }
  }
}
