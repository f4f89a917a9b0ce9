package dev.converge.buildchecks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A module's {@code internal} packages are its own: the build fails when a module-info exports one,
 * or when a source file (main or test) of one module names a type of another module's internal
 * package. The failure lists each place as {@code file:line: the line}.
 */
class ModuleBoundaryTest {

  /**
   * Places that break the rule today in code this change could not edit, as {@code file -> the
   * internal type it names}. The list only shrinks: an entry that no longer matches anything fails
   * the build, so that it is removed with the fix.
   */
  private static final Set<String> ALLOWED = Set.of();

  @Test
  void noModuleInfoExportsAnInternalPackage() {
    List<Violation> found = ModuleBoundaries.internalExports(SourceTree.ofThisBuild());

    assertThat(found)
        .as("module-info files that export an internal package:%n%s", lines(found))
        .isEmpty();
  }

  @Test
  void noModuleNamesAnotherModulesInternalTypes() {
    List<Violation> found = ModuleBoundaries.crossModuleInternalUses(SourceTree.ofThisBuild());

    List<Violation> unexpected =
        found.stream().filter(v -> !ALLOWED.contains(key(v))).collect(Collectors.toList());
    assertThat(unexpected)
        .as(
            "sources that use another module's internal types (make the type API, or keep the"
                + " code in its module):%n%s",
            lines(unexpected))
        .isEmpty();
    Set<String> stillThere =
        found.stream().map(ModuleBoundaryTest::key).collect(Collectors.toSet());
    assertThat(stillThere)
        .as("allow-list entries that no longer break the rule must be deleted")
        .containsAll(ALLOWED);
  }

  @Test
  void reportsAnExportedInternalPackageWithItsFileAndLine(@TempDir Path root) throws IOException {
    write(root, "pom.xml", "<modules><module>a</module></modules>");
    write(
        root,
        "a/src/main/java/module-info.java",
        """
        /** exports x.internal; in a comment does not count */
        module a {
          exports x.api;
          exports x.internal to b;
          exports x.api.internal.more;
        }
        """);

    List<Violation> found = ModuleBoundaries.internalExports(new SourceTree(root));

    assertThat(found)
        .extracting(Violation::toString)
        .containsExactly(
            "a/src/main/java/module-info.java:4: exports x.internal to b;",
            "a/src/main/java/module-info.java:5: exports x.api.internal.more;");
  }

  @Test
  void reportsEveryWayOneModuleNamesAnotherModulesInternalType(@TempDir Path root)
      throws IOException {
    write(root, "pom.xml", "<modules>\n<module>a</module>\n<module>b</module>\n</modules>");
    write(root, "b/src/main/java/b/internal/Secret.java", "package b.internal; class Secret {}");
    write(root, "b/src/main/java/b/Api.java", "package b; import b.internal.Secret; class Api {}");
    write(
        root,
        "a/src/test/java/a/User.java",
        """
        package a;

        import b.internal.Secret;
        import static b.internal.Secret.NAME;
        import b.internal.*;
        import other.library.internal.Tool;

        // b.internal.Secret in a comment does not count
        class User {
          String s = "b.internal.Secret in a string does not count";
          Object o = b.internal.Secret.create();
        }
        """);

    List<Violation> found = ModuleBoundaries.crossModuleInternalUses(new SourceTree(root));

    assertThat(found)
        .extracting(Violation::toString)
        .containsExactly(
            "a/src/test/java/a/User.java:3: import b.internal.Secret;",
            "a/src/test/java/a/User.java:4: import static b.internal.Secret.NAME;",
            "a/src/test/java/a/User.java:5: import b.internal.*;",
            "a/src/test/java/a/User.java:11: Object o = b.internal.Secret.create();");
  }

  private static String key(Violation v) {
    return v.file() + " -> " + v.name();
  }

  private static String lines(List<Violation> found) {
    return found.stream().map(Violation::toString).collect(Collectors.joining("\n"));
  }

  private static void write(Path root, String file, String text) throws IOException {
    Path path = root.resolve(file);
    Files.createDirectories(path.getParent());
    Files.writeString(path, text);
  }
}
