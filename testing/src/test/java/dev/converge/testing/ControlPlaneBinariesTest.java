package dev.converge.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java side must look for the binaries exactly where controlplane/build.sh puts them. */
class ControlPlaneBinariesTest {

  private static final Path BUILD_SCRIPT = Path.of("..", "controlplane", "build.sh");

  private static String printedFolder(Map<String, String> env)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder("bash", BUILD_SCRIPT.toString(), "--print");
    builder.environment().putAll(env);
    Process process = builder.redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(process.waitFor()).as("build.sh --print: %s", out).isZero();
    return out;
  }

  @Test
  void defaultCacheFolderIsWhereTheBuildScriptWrites() throws Exception {
    assertThat(Path.of(printedFolder(Map.of())))
        .isEqualTo(ControlPlaneBinaries.defaultCacheFolder());
    assertThat(ControlPlaneBinaries.searchFolders())
        .last()
        .isEqualTo(ControlPlaneBinaries.defaultCacheFolder());
  }

  @Test
  void theScriptHonoursTheCacheVariablesTheJavaSideReads(@TempDir Path cache) throws Exception {
    assertThat(Path.of(printedFolder(Map.of("CONVERGE_CACHE_DIR", cache.toString()))))
        .isEqualTo(cache.resolve("controlplane").resolve("bin"));
    assertThat(Path.of(printedFolder(Map.of("XDG_CACHE_HOME", cache.toString()))))
        .isEqualTo(cache.resolve("converge").resolve("controlplane").resolve("bin"));
  }
}
