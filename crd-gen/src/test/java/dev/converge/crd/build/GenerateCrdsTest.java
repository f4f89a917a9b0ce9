package dev.converge.crd.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.crd.BundledCrds;
import dev.converge.crd.CrdGenerationException;
import dev.converge.crd.GeneratedCrd;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build step scans compiled classes, writes one YAML per CRD plus an index, and the runtime
 * reads them back.
 */
class GenerateCrdsTest {

  /**
   * A classes folder holding only the sample package (the test classes also hold deliberately
   * broken resources).
   */
  private static Path sampleClasses(Path temp) throws Exception {
    Path source = Path.of("target", "test-classes", "dev", "converge", "crd", "sample");
    Path target = temp.resolve("scanned").resolve("dev/converge/crd/sample");
    Files.createDirectories(target);
    try (var files = Files.list(source)) {
      for (Path file : files.toList()) {
        Files.copy(file, target.resolve(file.getFileName()));
      }
    }
    return temp.resolve("scanned");
  }

  @Test
  void scansCompiledClassesAndWritesEveryCrdToEveryOutput(@TempDir Path temp) throws Exception {
    Path scanned = sampleClasses(temp);
    Path jarFolder = temp.resolve("classes").resolve(GeneratedCrd.RESOURCE_FOLDER);
    Path plain = temp.resolve("crds");
    List<Path> written =
        GenerateCrds.run(
            List.of(
                "--classes",
                scanned.toString(),
                "--output",
                jarFolder.toString(),
                "--output",
                plain.toString()),
            getClass().getClassLoader());

    assertThat(jarFolder.resolve("widgets.widgets.crd.converge.dev.yaml")).exists();
    assertThat(jarFolder.resolve("appdeployments.sample.crd.converge.dev.yaml")).exists();
    List<String> index = Files.readAllLines(plain.resolve(GenerateCrds.INDEX_FILE));
    assertThat(index)
        .containsExactly(
            "appdeployments.sample.crd.converge.dev.yaml",
            "schedules.schedules.crd.converge.dev.yaml",
            "widgets.widgets.crd.converge.dev.yaml",
            "workloads.workloads.crd.converge.dev.yaml");
    assertThat(written).contains(plain.resolve(GenerateCrds.INDEX_FILE));
    assertThat(Files.readString(plain.resolve("widgets.widgets.crd.converge.dev.yaml")))
        .contains("kind: CustomResourceDefinition", "name: widgets.widgets.crd.converge.dev");
  }

  @Test
  void versionsOfOneKindGiveOneFile(@TempDir Path temp) {
    List<Path> written =
        GenerateCrds.run(
            List.of(
                "--class", "dev.converge.crd.CustomResourceDefinitionTest$GadgetV1",
                "--class", "dev.converge.crd.CustomResourceDefinitionTest$GadgetV1Alpha1",
                "--output", temp.toString()),
            getClass().getClassLoader());
    assertThat(written)
        .containsExactly(
            temp.resolve("gadgets.gadgets.crd.converge.dev.yaml"),
            temp.resolve(GenerateCrds.INDEX_FILE));
  }

  @Test
  void explicitClassesAndTheRuntimeReaderRoundTrip(@TempDir Path temp) throws Exception {
    Path classes = temp.resolve("classes");
    GenerateCrds.run(
        List.of(
            "--class",
            "dev.converge.crd.sample.AppDeployment",
            "--output",
            classes.resolve(GeneratedCrd.RESOURCE_FOLDER).toString()),
        getClass().getClassLoader());
    try (URLClassLoader jar = new URLClassLoader(new URL[] {classes.toUri().toURL()}, null)) {
      List<GeneratedCrd> bundled = BundledCrds.load(jar);
      assertThat(bundled)
          .extracting(GeneratedCrd::name)
          .containsExactly("appdeployments.sample.crd.converge.dev");
      assertThat(
              bundled
                  .get(0)
                  .definition()
                  .getSpec()
                  .getVersions()
                  .get(0)
                  .getSchema()
                  .getOpenAPIV3Schema()
                  .getProperties()
                  .get("spec")
                  .getRequired())
          .containsExactly("image");
    }
  }

  @Test
  void failsClearlyWhenNothingIsFoundOrArgumentsAreWrong(@TempDir Path temp) throws Exception {
    Files.createDirectories(temp.resolve("empty"));
    assertThatThrownBy(
            () ->
                GenerateCrds.run(
                    List.of("--classes", temp.resolve("empty").toString()),
                    getClass().getClassLoader()))
        .isInstanceOf(CrdGenerationException.class)
        .hasMessageContaining("no custom resource classes");
    assertThatThrownBy(
            () ->
                GenerateCrds.run(
                    List.of("--classes", temp.resolve("missing").toString()),
                    getClass().getClassLoader()))
        .isInstanceOf(CrdGenerationException.class)
        .hasMessageContaining("process-classes");
    assertThatThrownBy(() -> GenerateCrds.run(List.of("--bogus", "x"), getClass().getClassLoader()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown option --bogus");
  }
}
