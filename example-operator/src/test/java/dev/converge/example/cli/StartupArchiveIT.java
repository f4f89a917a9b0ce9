package dev.converge.example.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentCrd;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.api.Phase;
import dev.converge.testing.LaunchedProcess;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.ProcessLauncher;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

    ProcessLauncher.Finished trained =
        ProcessLauncher.command(
                "sh",
                Path.of("startup-archive.sh").toAbsolutePath().toString(),
                archive.toString(),
                options.toString(),
                classPath,
                "dev.converge.example.AppOperator",
                "--http-port=0")
            .env("TRAINING_SECONDS", "10")
            .env("PATH", ProcessLauncher.javaBinary().getParent() + ":" + System.getenv("PATH"))
            .run(Duration.ofSeconds(60));
    assertThat(trained.exitCode()).as(trained.output()).isZero();
    assertThat(archive).isNotEmptyFile();

    AppDeploymentCrd.install(admin, Duration.ofSeconds(30));
    try (LaunchedProcess operator =
        ProcessLauncher.java("dev.converge.example.AppOperator")
            .classPath(classPath)
            .jvmOptions("@" + options, "-Xshare:on", "-XX:SharedArchiveFile=" + archive, "-Xmx256m")
            .args(
                "--kubeconfig",
                cluster.kubeconfig().toString(),
                "--namespace",
                ns.name(),
                "--http-port",
                "0")
            .log(dir.resolve("operator.log"))
            .start()) {
      int probes = Integer.parseInt(operator.awaitOutput(PORT, Duration.ofSeconds(60)).group(1));
      HttpClient http = HttpClient.newHttpClient();
      operator.awaitReady(
          "ready",
          Duration.ofSeconds(60),
          () -> {
            try {
              return http.send(
                          HttpRequest.newBuilder(
                                  URI.create("http://127.0.0.1:" + probes + "/readyz"))
                              .build(),
                          HttpResponse.BodyHandlers.discarding())
                      .statusCode()
                  == 200;
            } catch (IOException notYet) {
              return false;
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return false;
            }
          });

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
      assertThat(operator.isAlive()).as("%s", operator.output()).isTrue();
      operator.stop(Duration.ofSeconds(30));
    }
  }
}
