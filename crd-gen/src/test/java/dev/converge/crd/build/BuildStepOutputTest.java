package dev.converge.crd.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.crd.BundledCrds;
import dev.converge.crd.CrdGenerator;
import dev.converge.crd.GeneratedCrd;
import dev.converge.crd.sample.AppDeployment;
import dev.converge.crd.sample.Widget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What exec-maven-plugin wrote during this module's own build (execution {@code
 * generate-sample-crds} in crd-gen/pom.xml, phase process-test-classes): the CRDs are on the class
 * path where an operator's jar carries them, and in a folder under target. Run through Maven; an
 * IDE run skips that execution.
 */
class BuildStepOutputTest {

  @Test
  void theBuildWroteTheCrdsToTheClassPathAndToTarget() throws Exception {
    List<GeneratedCrd> bundled = BundledCrds.load(getClass().getClassLoader());
    assertThat(bundled)
        .extracting(GeneratedCrd::name)
        .containsExactly(
            "appdeployments.sample.crd.converge.dev", "widgets.widgets.crd.converge.dev");
    List<GeneratedCrd> fresh = CrdGenerator.generate(AppDeployment.class, Widget.class);
    for (int i = 0; i < fresh.size(); i++) {
      assertThat(bundled.get(i).yaml()).isEqualTo(fresh.get(i).yaml());
      assertThat(bundled.get(i).definition()).isEqualTo(fresh.get(i).definition());
      assertThat(Path.of("target", "sample-crds", fresh.get(i).fileName())).exists();
      assertThat(Files.readString(Path.of("target", "sample-crds", fresh.get(i).fileName())))
          .isEqualTo(fresh.get(i).yaml());
    }
  }
}
