package dev.converge.example.hello;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.crd.CrdGenerator;
import dev.converge.crd.CrdInstaller;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's hello operator, run as a user runs it: its {@code main} in a JVM of its own with
 * only a kubeconfig, stopped with SIGTERM.
 */
@ExtendWith(LocalClusterExtension.class)
class HelloOperatorIT {

  @Test
  void greetsWithAConfigMapThatIsCollectedWithTheGreeting(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster, @TempDir Path dir)
      throws Exception {
    CrdInstaller.install(admin, CrdGenerator.generate(Greeting.class), Duration.ofSeconds(60));
    Path log = dir.resolve("hello-operator.log");
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m",
                "-cp",
                System.getProperty("java.class.path"),
                HelloOperator.class.getName())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().put("KUBECONFIG", cluster.kubeconfig().toString());
    Process process = builder.start();
    try {
      Greeting greeting = new Greeting();
      greeting.getMetadata().setName("world");
      greeting.getMetadata().setNamespace(ns.name());
      greeting.setSpec(new Greeting.Spec("World"));
      Greeting created = admin.resource(greeting).create();

      ConfigMap message =
          await("the greeting's ConfigMap")
              .atMost(Duration.ofSeconds(90))
              .until(
                  () -> admin.configMaps().inNamespace(ns.name()).withName("world").get(),
                  cm -> cm != null);
      assertThat(message.getData()).containsEntry("message", "Hello, World!");
      assertThat(message.getMetadata().getOwnerReferences())
          .singleElement()
          .satisfies(
              owner -> {
                assertThat(owner.getUid()).isEqualTo(created.getMetadata().getUid());
                assertThat(owner.getController()).isTrue();
              });

      admin.resource(created).delete();
      await("the ConfigMap collected by the garbage collector")
          .atMost(Duration.ofSeconds(90))
          .until(() -> admin.configMaps().inNamespace(ns.name()).withName("world").get() == null);
    } finally {
      process.destroy(); // SIGTERM
      boolean ended = process.waitFor(60, TimeUnit.SECONDS);
      if (!ended) {
        process.destroyForcibly();
      }
      assertThat(ended).as("stopped on SIGTERM; log:%n%s", Files.readString(log)).isTrue();
    }
    assertThat(Files.readString(log)).contains("operator hello-operator: stopped");
    assertThat(List.of(process.exitValue())).containsAnyOf(0, 143);
  }
}
