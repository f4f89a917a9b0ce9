package dev.converge.docscheck;

import java.util.List;

/**
 * One {@code ```java} block of a Markdown file, with what the {@code <!-- snippet: ... -->} comment
 * right above it adds.
 *
 * @param file the Markdown file, relative to the repository root, as errors name it
 * @param fenceLine the 1-based line of the opening fence
 * @param lines the block's lines, without the fences and without the fence's indentation
 * @param imports import declarations from the comment, each a whole declaration ({@code import
 *     a.b.C;})
 * @param given the parameters a fragment receives, as a Java parameter list ({@code
 *     KubernetesClient client, Widget widget}); empty when none
 */
record JavaBlock(
    String file, int fenceLine, List<String> lines, List<String> imports, String given) {

  JavaBlock {
    lines = List.copyOf(lines);
    imports = List.copyOf(imports);
  }

  /** The 1-based line of the Markdown file that holds the block's line {@code index} (0-based). */
  int markdownLine(int index) {
    return fenceLine + 1 + index;
  }
}
