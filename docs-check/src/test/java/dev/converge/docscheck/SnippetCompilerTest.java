package dev.converge.docscheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

/** The checker itself: what passes, and how a failure names the file, the line and the cause. */
class SnippetCompilerTest {

  private final SnippetCompiler compiler =
      new SnippetCompiler(System.getProperty("java.class.path"));

  private List<String> errors(String markdown) {
    return compiler.errors("m/README.md", MarkdownJavaBlocks.of("m/README.md", markdown));
  }

  @Test
  void aFragmentGetsTheImportsAndParametersOfItsComment() {
    String md =
        """
        Text.

        <!-- snippet: import io.fabric8.kubernetes.api.model.ConfigMap;
             given ConfigMap map, String key -->
        ```java
        String value = map.getData().get(key);
        List<String> keys = new ArrayList<>(map.getData().keySet());
        ```
        """;
    assertThat(errors(md)).isEmpty();
  }

  @Test
  void anErrorNamesTheFileTheMarkdownLineAndJavacsMessage() {
    String md =
        """
        # Title

        ```java
        String ok = "fine";
        int n = ok.lenght();
        ```
        """;
    List<String> errors = errors(md);
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0))
        .startsWith("m/README.md:5: cannot find symbol")
        .contains("int n = ok.lenght();")
        .contains("block at line 3");
  }

  @Test
  void aBlockOfTypesIsCompiledAsItStandsAndLaterBlocksSeeItsTypes() {
    String md =
        """
        ```java
        @SuppressWarnings({"unused", "rawtypes"})
        public class Thing {
          public String name = "{not a brace}";
        }

        public record Pair(Thing left, Thing right) {}
        ```

        ```java
        Pair pair = new Pair(new Thing(), new Thing());
        String name = pair.left().name;
        ```
        """;
    assertThat(errors(md)).isEmpty();
  }

  @Test
  void theStandInsAndTheDefaultImportsNeedNoComment() {
    String md =
        """
        ```java
        Widget widget = new Widget("web", new WidgetSpec("nginx:1.27", 2));
        Duration wait = Duration.ofSeconds(widget.getSpec().getReplicas());
        ```
        """;
    assertThat(errors(md)).isEmpty();
  }

  @Test
  void otherBlocksAreNotCompiled() {
    String md =
        """
        ```
        this is not java {
        ```

        ```text
        nor this
        ```
        """;
    assertThat(MarkdownJavaBlocks.of("m/README.md", md)).isEmpty();
  }

  @Test
  void givenOnAWholeCompilationUnitIsAnError() {
    String md =
        """
        <!-- snippet: given String name -->
        ```java
        class Named {}
        ```
        """;
    assertThat(errors(md))
        .singleElement(InstanceOfAssertFactories.STRING)
        .startsWith("m/README.md:2: ")
        .contains("'given' has nothing to give to");
  }

  @Test
  void aClauseThatIsNeitherImportNorGivenIsAnError() {
    String md =
        """
        <!-- snippet: imports java.util.List -->
        ```java
        int x = 1;
        ```
        """;
    assertThatThrownBy(() -> MarkdownJavaBlocks.of("m/README.md", md))
        .hasMessageStartingWith("m/README.md:2: ")
        .hasMessageContaining("imports java.util.List");
  }
}
