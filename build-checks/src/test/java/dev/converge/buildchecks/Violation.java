package dev.converge.buildchecks;

/**
 * One breach of a rule: where it is ({@code file} relative to the checkout, 1-based {@code line}),
 * the line as written, and the name it breaks the rule with.
 */
record Violation(String file, int line, String source, String name) {

  @Override
  public String toString() {
    return file + ":" + line + ": " + source.strip();
  }
}
