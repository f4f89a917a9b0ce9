package dev.converge.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ControlPlaneBinariesTest {

  @Test
  void defaultCacheFolderMatchesTheBuildScript() {
    Path folder = ControlPlaneBinaries.defaultCacheFolder();
    assertThat(folder.endsWith(Path.of("converge", "controlplane", "bin"))
            || System.getenv("CONVERGE_CACHE_DIR") != null)
        .isTrue();
    assertThat(ControlPlaneBinaries.searchFolders()).last().isEqualTo(folder);
  }
}
