package dev.converge.benchmarks.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StartupArchiveTest {

  private static Path jdk(Path dir, String name, String release) throws Exception {
    Path home = Files.createDirectories(dir.resolve(name));
    Files.writeString(home.resolve("release"), release);
    return Files.createFile(Files.createDirectories(home.resolve("bin")).resolve("java"));
  }

  @Test
  void aJdkFromVersion25OnGetsItsAheadOfTimeCache(@TempDir Path dir) throws Exception {
    Path java25 = jdk(dir, "jdk-25", "IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_VERSION=\"25.0.3\"\n");
    Path link = Files.createSymbolicLink(dir.resolve("java"), java25);

    assertThat(StartupArchive.featureVersion(link.toString())).isEqualTo(OptionalInt.of(25));
    assertThat(StartupArchive.forLauncher(link.toString()))
        .isEqualTo(StartupArchive.AHEAD_OF_TIME_CACHE);
    Path cache = dir.resolve("operator.aot");
    assertThat(StartupArchive.AHEAD_OF_TIME_CACHE.writeOption(cache))
        .isEqualTo("-XX:AOTCacheOutput=" + cache);
    assertThat(StartupArchive.AHEAD_OF_TIME_CACHE.useOption(cache))
        .isEqualTo("-XX:AOTCache=" + cache);
  }

  @Test
  void anOlderJdkOrAnUnknownCommandGetsAClassDataArchive(@TempDir Path dir) throws Exception {
    Path java17 = jdk(dir, "jdk-17", "JAVA_VERSION=\"17.0.15\"\n");

    assertThat(StartupArchive.forLauncher(java17.toString())).isEqualTo(StartupArchive.CLASS_DATA);
    assertThat(StartupArchive.featureVersion("./my-operator")).isEmpty();
    assertThat(StartupArchive.forLauncher("./my-operator")).isEqualTo(StartupArchive.CLASS_DATA);
    Path archive = dir.resolve("operator.jsa");
    assertThat(StartupArchive.CLASS_DATA.writeOption(archive))
        .isEqualTo("-XX:ArchiveClassesAtExit=" + archive);
    assertThat(StartupArchive.CLASS_DATA.useOption(archive))
        .isEqualTo("-XX:SharedArchiveFile=" + archive);
  }
}
