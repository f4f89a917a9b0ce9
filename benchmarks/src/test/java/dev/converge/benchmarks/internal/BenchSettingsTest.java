package dev.converge.benchmarks.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchSettingsTest {

  @Test
  void foldersOfTheClassPathFollowItsJarsInTheirOrder(@TempDir Path dir) throws Exception {
    Path classes = Files.createDirectories(dir.resolve("classes"));
    Path moreClasses = Files.createDirectories(dir.resolve("more-classes"));
    Path a = Files.createFile(dir.resolve("a.jar"));
    Path b = Files.createFile(dir.resolve("b.jar"));
    String classPath =
        String.join(File.pathSeparator, "" + classes, "" + a, "" + moreClasses, "" + b);

    assertThat(BenchSettings.jarsFirst(classPath))
        .isEqualTo(String.join(File.pathSeparator, "" + a, "" + b, "" + classes, "" + moreClasses));
  }

  @Test
  void theOperatorGetsOnlyTheJarsOfTheExamplesImage(@TempDir Path dir) throws Exception {
    Path lib = Files.createDirectories(dir.resolve("lib"));
    Files.createFile(lib.resolve("core.jar"));
    Files.createFile(lib.resolve("client.jar"));
    Path classes = Files.createDirectories(dir.resolve("classes"));
    Path example = Files.createFile(dir.resolve("converge-example-operator-1.0.jar"));
    Path core = Files.createFile(dir.resolve("core.jar"));
    Path testLibrary = Files.createFile(dir.resolve("assertions.jar"));
    Path client = Files.createFile(dir.resolve("client.jar"));
    String classPath =
        String.join(
            File.pathSeparator,
            "" + classes,
            "" + example,
            "" + core,
            "" + testLibrary,
            "" + client);

    assertThat(BenchSettings.imageJars(classPath, java.util.Optional.of(lib)))
        .isEqualTo(
            String.join(File.pathSeparator, "" + classes, "" + example, "" + core, "" + client));
    assertThat(BenchSettings.imageJars(classPath, java.util.Optional.empty())).isEqualTo(classPath);
  }

  @Test
  void anAheadOfTimeCacheGetsTheJarsAlone(@TempDir Path dir) throws Exception {
    Path classes = Files.createDirectories(dir.resolve("classes"));
    Path a = Files.createFile(dir.resolve("a.jar"));
    Path b = Files.createFile(dir.resolve("b.jar"));
    String classPath = String.join(File.pathSeparator, "" + classes, "" + a, "" + b);

    assertThat(BenchSettings.jarsOnly(classPath))
        .isEqualTo(String.join(File.pathSeparator, "" + a, "" + b));
  }

  @Test
  void theExampleCommandHasTheArchiveArgumentBeforeItsMainClass() {
    var command =
        BenchSettings.exampleOperatorCommand(
            java.util.Optional.empty(), java.util.List.of(), java.util.List.of());
    assertThat(command).contains(BenchSettings.CDS);
    assertThat(command.indexOf(BenchSettings.CDS))
        .isLessThan(command.indexOf("dev.converge.example.AppOperator"));
  }
}
