package dev.converge.crd.roundtrip.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Draws random strings that a regular expression matches, for the subset of syntax that CRD
 * patterns use (both Java's and Go's RE2 read it the same way): literals and escapes, {@code .},
 * classes ({@code [a-z0-9-]}, negated, {@code \d \w \s}), groups ({@code (...)}, {@code (?:...)}),
 * alternation, quantifiers ({@code ? * + {n} {n,} {n,m}}, lazy or not) and the anchors {@code ^ $}.
 * Unbounded repetition stops at a few repeats. The caller checks every draw with {@link
 * java.util.regex.Pattern}; syntax outside the subset is an {@link IllegalArgumentException} naming
 * it.
 */
public final class RegexSampler {

  private static final int UNBOUNDED_EXTRA = 4;
  private static final String PRINTABLE = printable();

  private final String pattern;
  private int position;

  private RegexSampler(String pattern) {
    this.pattern = pattern;
  }

  /** One random string for {@code pattern}. */
  public static String sample(String pattern, Random random) {
    RegexSampler parser = new RegexSampler(pattern);
    Node node = parser.alternation();
    if (parser.position != pattern.length()) {
      throw parser.unsupported("unbalanced ')'");
    }
    StringBuilder out = new StringBuilder();
    node.emit(random, out);
    return out.toString();
  }

  private interface Node {
    void emit(Random random, StringBuilder out);
  }

  private record Literal(String text) implements Node {
    @Override
    public void emit(Random random, StringBuilder out) {
      out.append(text);
    }
  }

  private record CharClass(List<Character> chars) implements Node {
    @Override
    public void emit(Random random, StringBuilder out) {
      out.append(chars.get(random.nextInt(chars.size())));
    }
  }

  private record Sequence(List<Node> parts) implements Node {
    @Override
    public void emit(Random random, StringBuilder out) {
      parts.forEach(part -> part.emit(random, out));
    }
  }

  private record Choice(List<Node> options) implements Node {
    @Override
    public void emit(Random random, StringBuilder out) {
      options.get(random.nextInt(options.size())).emit(random, out);
    }
  }

  private record Repeat(Node node, int min, int max) implements Node {
    @Override
    public void emit(Random random, StringBuilder out) {
      int times = min + random.nextInt(max - min + 1);
      for (int i = 0; i < times; i++) {
        node.emit(random, out);
      }
    }
  }

  private Node alternation() {
    List<Node> options = new ArrayList<>();
    options.add(sequence());
    while (peek('|')) {
      position++;
      options.add(sequence());
    }
    return options.size() == 1 ? options.get(0) : new Choice(options);
  }

  private Node sequence() {
    List<Node> parts = new ArrayList<>();
    while (position < pattern.length() && !peek('|') && !peek(')')) {
      Node atom = atom();
      parts.add(quantified(atom));
    }
    return new Sequence(parts);
  }

  private Node atom() {
    char c = pattern.charAt(position++);
    switch (c) {
      case '^', '$' -> {
        return new Literal("");
      }
      case '.' -> {
        return new CharClass(chars(PRINTABLE));
      }
      case '(' -> {
        if (peek('?')) {
          if (position + 1 < pattern.length() && pattern.charAt(position + 1) == ':') {
            position += 2;
          } else {
            throw unsupported("group flags or look-around '(?'");
          }
        }
        Node inner = alternation();
        expect(')');
        return inner;
      }
      case '[' -> {
        return characterClass();
      }
      case '\\' -> {
        return escape();
      }
      case '*', '+', '?', '{' ->
          throw unsupported("a quantifier '" + c + "' with nothing before it");
      default -> {
        return new Literal(String.valueOf(c));
      }
    }
  }

  private Node quantified(Node atom) {
    if (position >= pattern.length()) {
      return atom;
    }
    char c = pattern.charAt(position);
    Node result;
    switch (c) {
      case '?' -> {
        position++;
        result = new Repeat(atom, 0, 1);
      }
      case '*' -> {
        position++;
        result = new Repeat(atom, 0, UNBOUNDED_EXTRA);
      }
      case '+' -> {
        position++;
        result = new Repeat(atom, 1, 1 + UNBOUNDED_EXTRA);
      }
      case '{' -> {
        int close = pattern.indexOf('}', position);
        if (close < 0) {
          return atom;
        }
        String[] bounds = pattern.substring(position + 1, close).split(",", -1);
        try {
          int min = Integer.parseInt(bounds[0].trim());
          int max =
              bounds.length == 1
                  ? min
                  : bounds[1].isBlank()
                      ? min + UNBOUNDED_EXTRA
                      : Integer.parseInt(bounds[1].trim());
          position = close + 1;
          result = new Repeat(atom, min, max);
        } catch (NumberFormatException e) {
          throw unsupported("the repetition '" + pattern.substring(position, close + 1) + "'");
        }
      }
      default -> {
        return atom;
      }
    }
    if (peek('?')) {
      position++;
    }
    if (peek('+')) {
      throw unsupported("possessive quantifiers");
    }
    return result;
  }

  private Node characterClass() {
    boolean negated = peek('^');
    if (negated) {
      position++;
    }
    List<Character> members = new ArrayList<>();
    boolean first = true;
    while (position < pattern.length() && (first || !peek(']'))) {
      first = false;
      char c = pattern.charAt(position++);
      List<Character> item;
      if (c == '\\') {
        Node escaped = escape();
        item = escaped instanceof CharClass cls ? cls.chars() : chars(((Literal) escaped).text());
      } else if (c == '[') {
        throw unsupported("nested character classes");
      } else {
        item = List.of(c);
      }
      if (item.size() == 1
          && peek('-')
          && position + 1 < pattern.length()
          && pattern.charAt(position + 1) != ']') {
        position++;
        char end = pattern.charAt(position++);
        if (end == '\\') {
          end = ((Literal) escape()).text().charAt(0);
        }
        for (char x = item.get(0); x <= end; x++) {
          members.add(x);
        }
      } else {
        members.addAll(item);
      }
    }
    expect(']');
    if (!negated) {
      return new CharClass(members);
    }
    List<Character> others = new ArrayList<>();
    for (int i = 0; i < PRINTABLE.length(); i++) {
      char x = PRINTABLE.charAt(i);
      if (!members.contains(x)) {
        others.add(x);
      }
    }
    return new CharClass(others);
  }

  private Node escape() {
    if (position >= pattern.length()) {
      throw unsupported("a trailing backslash");
    }
    char c = pattern.charAt(position++);
    return switch (c) {
      case 'd' -> new CharClass(chars("0123456789"));
      case 'w' ->
          new CharClass(chars("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"));
      case 's' -> new CharClass(chars(" \t"));
      case 'n' -> new Literal("\n");
      case 't' -> new Literal("\t");
      case 'D', 'W', 'S', 'b', 'B', 'p', 'P', 'u', 'x', 'Q', 'E', 'A', 'z', 'Z' ->
          throw unsupported("the escape '\\" + c + "'");
      default -> {
        if (Character.isLetterOrDigit(c)) {
          throw unsupported("the escape '\\" + c + "'");
        }
        yield new Literal(String.valueOf(c));
      }
    };
  }

  private boolean peek(char c) {
    return position < pattern.length() && pattern.charAt(position) == c;
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw unsupported("a missing '" + c + "'");
    }
    position++;
  }

  private IllegalArgumentException unsupported(String what) {
    return new IllegalArgumentException(
        "cannot draw strings for the pattern '"
            + pattern
            + "': "
            + what
            + " (at character "
            + position
            + ") is outside the syntax the sampler knows");
  }

  private static List<Character> chars(String text) {
    List<Character> list = new ArrayList<>();
    for (int i = 0; i < text.length(); i++) {
      list.add(text.charAt(i));
    }
    return list;
  }

  private static String printable() {
    StringBuilder text = new StringBuilder();
    for (char c = 0x20; c < 0x7f; c++) {
      text.append(c);
    }
    return text.toString();
  }
}
