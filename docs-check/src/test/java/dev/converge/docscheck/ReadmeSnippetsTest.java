package dev.converge.docscheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every {@code ```java} block of README.md, ARCHITECTURE.md and each module's README.md compiles
 * against the modules it describes, so that a README cannot go on showing an API that changed. One
 * test per file; a failure names the file, the line and javac's message.
 */
class ReadmeSnippetsTest {

  /**
   * Files whose blocks are not compiled yet, relative to the repository root. They are being
   * rewritten; once their blocks carry their snippet comments, this set is emptied.
   */
  static final Set<String> NOT_YET_CHECKED = Set.of();

  private static final Path ROOT = Path.of(System.getProperty("docs.root", "..")).normalize();

  @TestFactory
  Stream<DynamicTest> everyJavaBlockCompiles() throws IOException {
    SnippetCompiler compiler = new SnippetCompiler(System.getProperty("java.class.path"));
    return documents().stream()
        .filter(file -> !NOT_YET_CHECKED.contains(file))
        .map(
            file ->
                DynamicTest.dynamicTest(
                    file,
                    () -> {
                      String markdown =
                          Files.readString(ROOT.resolve(file), StandardCharsets.UTF_8);
                      List<String> errors =
                          compiler.errors(file, MarkdownJavaBlocks.of(file, markdown));
                      assertThat(errors)
                          .withFailMessage(
                              () ->
                                  errors.size()
                                      + " error(s) in the Java blocks of "
                                      + file
                                      + ":\n"
                                      + String.join("\n", errors))
                          .isEmpty();
                    }));
  }

  @Test
  void theSkippedFilesExist() throws IOException {
    assertThat(documents()).containsAll(NOT_YET_CHECKED);
  }

  /** README.md, ARCHITECTURE.md and every module's README.md, relative to the root, sorted. */
  static List<String> documents() throws IOException {
    List<String> files = new ArrayList<>();
    for (String top : List.of("README.md", "ARCHITECTURE.md")) {
      if (Files.isRegularFile(ROOT.resolve(top))) {
        files.add(top);
      }
    }
    try (Stream<Path> dirs = Files.list(ROOT)) {
      dirs.filter(Files::isDirectory)
          .map(dir -> dir.resolve("README.md"))
          .filter(Files::isRegularFile)
          .map(readme -> ROOT.relativize(readme).toString().replace('\\', '/'))
          .sorted()
          .forEach(files::add);
    }
    return files;
  }
}
