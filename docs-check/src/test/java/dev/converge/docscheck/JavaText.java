package dev.converge.docscheck;

/**
 * Java source with its comments and its string and character literals blanked out (newlines kept),
 * so that keywords and braces can be found by plain text search without being fooled by a brace in
 * a string or a {@code class} in a comment.
 */
final class JavaText {

  private JavaText() {}

  /** {@code source} with every comment and literal replaced by spaces; same length, same lines. */
  static String code(String source) {
    StringBuilder out = new StringBuilder(source);
    int i = 0;
    int n = source.length();
    while (i < n) {
      char c = source.charAt(i);
      if (source.startsWith("//", i)) {
        i = blank(out, i, source.indexOf('\n', i));
      } else if (source.startsWith("/*", i)) {
        int end = source.indexOf("*/", i + 2);
        i = blank(out, i, end < 0 ? -1 : end + 2);
      } else if (source.startsWith("\"\"\"", i)) {
        i = blank(out, i, closing(source, i + 3, "\"\"\""));
      } else if (c == '"') {
        i = blank(out, i, closing(source, i + 1, "\""));
      } else if (c == '\'') {
        i = blank(out, i, closing(source, i + 1, "'"));
      } else {
        i++;
      }
    }
    return out.toString();
  }

  /** The index just past the unescaped {@code quote} at or after {@code from}, or -1. */
  private static int closing(String source, int from, String quote) {
    int i = from;
    while (i < source.length()) {
      if (source.charAt(i) == '\\') {
        i += 2;
      } else if (source.startsWith(quote, i)) {
        return i + quote.length();
      } else if (quote.length() == 1 && source.charAt(i) == '\n') {
        return i;
      } else {
        i++;
      }
    }
    return -1;
  }

  /**
   * Blanks {@code [from, to)} (to the end when {@code to < 0}) except newlines; returns {@code to}.
   */
  private static int blank(StringBuilder out, int from, int to) {
    int end = to < 0 ? out.length() : to;
    for (int k = from; k < end; k++) {
      if (out.charAt(k) != '\n') {
        out.setCharAt(k, ' ');
      }
    }
    return end;
  }
}
