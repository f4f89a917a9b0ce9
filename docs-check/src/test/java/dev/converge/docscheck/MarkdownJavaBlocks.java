package dev.converge.docscheck;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the {@code ```java} blocks of a Markdown text and the {@code <!-- snippet: ... -->} comment
 * that may stand right above each (blank lines between them are allowed).
 *
 * <p>The comment holds clauses separated by {@code ;}: {@code import a.b.C}, {@code import static
 * a.b.C.m}, {@code import a.b.*}, and one {@code given T name, U other} with the parameters a
 * fragment receives. An unknown clause is an error of the Markdown file, so a typo in a comment
 * does not pass unnoticed.
 */
final class MarkdownJavaBlocks {

  private static final Pattern FENCE = Pattern.compile("^(\\s*)(```+|~~~+)\\s*(\\S*).*$");
  private static final String SNIPPET = "snippet:";

  private MarkdownJavaBlocks() {}

  /**
   * The Java blocks of {@code markdown}.
   *
   * @param file the file's name as errors should show it
   * @throws IllegalArgumentException when a block is not closed or its comment has a clause that is
   *     neither an import nor a {@code given}; the message names the file and the line
   */
  static List<JavaBlock> of(String file, String markdown) {
    String[] lines = markdown.split("\r?\n", -1);
    List<JavaBlock> blocks = new ArrayList<>();
    int i = 0;
    while (i < lines.length) {
      Matcher open = FENCE.matcher(lines[i]);
      if (!open.matches()) {
        i++;
        continue;
      }
      String indent = open.group(1);
      String fence = open.group(2);
      boolean java = open.group(3).equalsIgnoreCase("java");
      int start = i;
      List<String> body = new ArrayList<>();
      i++;
      while (i < lines.length && !isClosing(lines[i], fence)) {
        body.add(stripIndent(lines[i], indent));
        i++;
      }
      if (i == lines.length) {
        throw new IllegalArgumentException(
            file + ":" + (start + 1) + ": the code block opened here is never closed");
      }
      i++;
      if (java) {
        List<String> imports = new ArrayList<>();
        String given = "";
        String comment = commentAbove(lines, start);
        if (comment != null) {
          for (String clause : comment.split(";", -1)) {
            String c = clause.strip();
            if (c.isEmpty()) {
              continue;
            }
            if (c.startsWith("import ")) {
              imports.add(c + ";");
            } else if (c.startsWith("given ")) {
              given = c.substring("given ".length()).strip();
            } else {
              throw new IllegalArgumentException(
                  file
                      + ":"
                      + (start + 1)
                      + ": the snippet comment above this block has the clause '"
                      + c
                      + "'; a clause is 'import ...' or 'given Type name, ...'");
            }
          }
        }
        blocks.add(new JavaBlock(file, start + 1, body, imports, given));
      }
    }
    return blocks;
  }

  private static boolean isClosing(String line, String fence) {
    String s = line.strip();
    return s.startsWith(fence) && s.chars().allMatch(ch -> ch == fence.charAt(0));
  }

  private static String stripIndent(String line, String indent) {
    int n = 0;
    while (n < indent.length() && n < line.length() && Character.isWhitespace(line.charAt(n))) {
      n++;
    }
    return line.substring(n);
  }

  /** The text of a {@code <!-- snippet: ... -->} comment ending right above the fence, or null. */
  private static String commentAbove(String[] lines, int fence) {
    int end = fence - 1;
    while (end >= 0 && lines[end].isBlank()) {
      end--;
    }
    if (end < 0 || !lines[end].strip().endsWith("-->")) {
      return null;
    }
    int begin = end;
    while (begin >= 0 && !lines[begin].contains("<!--")) {
      begin--;
    }
    if (begin < 0) {
      return null;
    }
    StringBuilder text = new StringBuilder();
    for (int k = begin; k <= end; k++) {
      text.append(lines[k]).append(' ');
    }
    String s = text.toString();
    s = s.substring(s.indexOf("<!--") + 4, s.lastIndexOf("-->")).strip();
    if (!s.startsWith(SNIPPET)) {
      return null;
    }
    return s.substring(SNIPPET.length());
  }
}
