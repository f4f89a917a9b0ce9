package dev.converge.webhooks.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.webhooks.sample.SampleManifestWebhooks;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * webhooks as a named module: module {@code dev.converge.webhooks} on the module path with its
 * runtime dependencies (fabric8's jars as automatic modules), the way an application with a
 * module-info runs it. The descriptor exports the API packages only, and the build step run from it
 * writes the same manifests as on the class path. Run through Maven: it reads the class path that
 * maven-dependency-plugin writes to {@code target/runtime.classpath}.
 */
class ModulePathTest {

  private static final Path CLASSES = Path.of("target", "classes");
  private static final Path TEST_CLASSES = Path.of("target", "test-classes");

  @Test
  void theModuleExportsItsApiPackagesOnly(@TempDir Path work) throws Exception {
    Result described =
        java(work, "--module-path", modulePath(), "--describe-module", "dev.converge.webhooks");

    assertThat(described.exitCode()).as(described.output()).isZero();
    List<String> exports =
        described.output().lines().filter(l -> l.startsWith("exports ")).sorted().toList();
    assertThat(exports)
        .containsExactly("exports dev.converge.webhooks", "exports dev.converge.webhooks.build");
  }

  @Test
  void theBuildStepRunFromTheModuleWritesTheSameManifests(@TempDir Path work) throws Exception {
    List<String> args =
        List.of(
            "--webhooks",
            SampleManifestWebhooks.class.getName(),
            "--service",
            "ops/gadget-webhooks:8443");
    Path onClassPath = work.resolve("class-path");
    List<Path> expected =
        GenerateWebhookManifests.run(
            concat(args, List.of("--output", onClassPath.toString())), getClass().getClassLoader());
    Path fromModule = work.resolve("module");

    List<String> command = new ArrayList<>();
    command.addAll(
        List.of(
            "--module-path",
            modulePath(),
            "-cp",
            TEST_CLASSES.toString(),
            "-m",
            "dev.converge.webhooks/dev.converge.webhooks.build.GenerateWebhookManifests"));
    command.addAll(concat(args, List.of("--output", fromModule.toString())));
    Result run = java(work, command.toArray(String[]::new));

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(expected)
        .extracting(p -> p.getFileName().toString())
        .containsExactly(
            "gadget-webhooks.validatingwebhookconfiguration.yaml",
            "gadget-webhooks.mutatingwebhookconfiguration.yaml");
    for (Path file : expected) {
      assertThat(Files.readString(fromModule.resolve(file.getFileName())))
          .isEqualTo(Files.readString(file));
    }
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static String modulePath() throws IOException {
    Path classpath = Path.of("target", "runtime.classpath");
    assertThat(classpath)
        .as("written by maven-dependency-plugin (webhooks/pom.xml); run the test through Maven")
        .exists();
    return CLASSES + File.pathSeparator + Files.readString(classpath).strip();
  }

  private record Result(int exitCode, String output) {}

  private static Result java(Path work, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(args));
    Path log = work.resolve("java.log");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!process.waitFor(5, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError(
          "java did not finish in 5 minutes: "
              + command
              + "\n"
              + Files.readString(log, StandardCharsets.UTF_8));
    }
    return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }
}
