package dev.converge.buildchecks;

/**
 * Just enough of Java's lexical structure for the checks: comments and string, text-block and
 * character literals blanked out (line breaks kept, so offsets keep their line numbers).
 */
final class JavaText {

  private JavaText() {}

  static String withoutCommentsAndLiterals(String text) {
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
        int end = text.indexOf('\n', i);
        i = blank(text, out, i, end < 0 ? n : end);
      } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
        int end = text.indexOf("*/", i + 2);
        i = blank(text, out, i, end < 0 ? n : end + 2);
      } else if (text.startsWith("\"\"\"", i)) {
        int end = closing(text, i + 3, "\"\"\"");
        i = blank(text, out, i, end);
      } else if (c == '"') {
        i = blank(text, out, i, closing(text, i + 1, "\""));
      } else if (c == '\'') {
        i = blank(text, out, i, closing(text, i + 1, "'"));
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  /** The offset just past the {@code quote} that closes a literal, skipping escaped characters. */
  private static int closing(String text, int from, String quote) {
    int i = from;
    while (i < text.length()) {
      if (text.charAt(i) == '\\') {
        i += 2;
      } else if (text.startsWith(quote, i)) {
        return i + quote.length();
      } else if (quote.length() == 1 && text.charAt(i) == '\n') {
        return i;
      } else {
        i++;
      }
    }
    return text.length();
  }

  private static int blank(String text, StringBuilder out, int from, int to) {
    for (int i = from; i < to; i++) {
      out.append(text.charAt(i) == '\n' ? '\n' : ' ');
    }
    return to;
  }

  /** The 1-based line of {@code offset}. */
  static int lineOf(String text, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }

  /** Line {@code line} (1-based) of {@code text}, without its line break. */
  static String line(String text, int line) {
    String[] lines = text.split("\n", -1);
    return lines[line - 1];
  }
}
