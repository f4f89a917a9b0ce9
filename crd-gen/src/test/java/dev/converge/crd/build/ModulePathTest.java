package dev.converge.crd.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.crd.CrdGenerator;
import dev.converge.crd.GeneratedCrd;
import dev.converge.crd.sample.AppDeployment;
import dev.converge.crd.sample.Widget;
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
 * crd-gen as a named module: module {@code dev.converge.crd} on the module path with its runtime
 * dependencies (fabric8's jars as automatic modules), the way an application with a module-info
 * runs it. The descriptor exports the API packages only, and the build step run from it writes the
 * same CRDs as the generator on the class path, which needs the generator's own resources to be
 * readable from inside the module. Run through Maven: it reads the class path that
 * maven-dependency-plugin writes to {@code target/runtime.classpath}.
 */
class ModulePathTest {

  private static final Path CLASSES = Path.of("target", "classes");
  private static final Path TEST_CLASSES = Path.of("target", "test-classes");

  @Test
  void theModuleExportsItsApiPackagesOnly(@TempDir Path work) throws Exception {
    Result described =
        java(work, "--module-path", modulePath(), "--describe-module", "dev.converge.crd");

    assertThat(described.exitCode()).as(described.output()).isZero();
    List<String> exports =
        described.output().lines().filter(l -> l.startsWith("exports ")).sorted().toList();
    assertThat(exports)
        .containsExactly(
            "exports dev.converge.crd",
            "exports dev.converge.crd.annotation",
            "exports dev.converge.crd.build",
            "exports dev.converge.crd.roundtrip");
  }

  @Test
  void theBuildStepRunFromTheModuleWritesTheSameCrds(@TempDir Path work) throws Exception {
    Path output = work.resolve("crds");

    Result run =
        java(
            work,
            "--module-path",
            modulePath(),
            "-cp",
            TEST_CLASSES.toString(),
            "-m",
            "dev.converge.crd/dev.converge.crd.build.GenerateCrds",
            "--class",
            AppDeployment.class.getName(),
            "--class",
            Widget.class.getName(),
            "--output",
            output.toString());

    assertThat(run.exitCode()).as(run.output()).isZero();
    for (GeneratedCrd crd : CrdGenerator.generate(AppDeployment.class, Widget.class)) {
      assertThat(Files.readString(output.resolve(crd.fileName()))).isEqualTo(crd.yaml());
    }
  }

  private static String modulePath() throws IOException {
    Path classpath = Path.of("target", "runtime.classpath");
    assertThat(classpath)
        .as("written by maven-dependency-plugin (crd-gen/pom.xml); run the test through Maven")
        .exists();
    return CLASSES + File.pathSeparator + Files.readString(classpath).strip();
  }

  private record Result(int exitCode, String output) {}

  private static Result java(Path work, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
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
