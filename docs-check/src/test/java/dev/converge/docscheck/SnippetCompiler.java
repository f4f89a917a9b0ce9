package dev.converge.docscheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

/**
 * Compiles the Java blocks of one Markdown file with {@code javax.tools}, the way a reader would
 * paste them into a project, and answers javac's errors as lines of the Markdown file.
 *
 * <p>All blocks of one file are compiled together, in one package of their own, so a later block
 * may use a type an earlier one declares. A block that starts with {@code package} or {@code
 * import}, or that declares top-level types, is compiled as it stands (one source file per
 * top-level type); any other block is a fragment: its statements become the body of a method whose
 * parameters are the comment's {@code given}. Both get the comment's imports and {@link
 * #DEFAULT_IMPORTS}.
 */
final class SnippetCompiler {

  /** Imported into every block: the JDK packages snippets use unqualified, and the stand-ins. */
  static final List<String> DEFAULT_IMPORTS =
      List.of(
          "import java.io.*;",
          "import java.nio.file.*;",
          "import java.time.*;",
          "import java.util.*;",
          "import java.util.concurrent.*;",
          "import java.util.function.*;",
          "import dev.converge.docscheck.given.*;");

  private static final Pattern TYPE_START =
      Pattern.compile(
          "(?:@\\s*[\\w.]+\\s*(?:\\((?:[^()]|\\([^()]*\\))*\\))?\\s*"
              + "|(?:public|protected|private|abstract|static|final|sealed|non-sealed|strictfp)\\s+)*"
              + "(?:@interface|class|interface|enum|record)\\s+\\w+.*",
          Pattern.DOTALL);
  private static final Pattern TYPE_NAME =
      Pattern.compile("(?:@interface|\\bclass|\\binterface|\\benum|\\brecord)\\s+(\\w+)");
  private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;");

  private final String classpath;

  SnippetCompiler(String classpath) {
    this.classpath = classpath;
  }

  /**
   * javac's errors for {@code blocks}, one string each: {@code file:line: message}, then the line's
   * text and the line of the block; empty when all compile.
   */
  List<String> errors(String file, List<JavaBlock> blocks) {
    if (blocks.isEmpty()) {
      return List.of();
    }
    String pkg = packageOf(file);
    List<Source> sources = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    for (JavaBlock block : blocks) {
      try {
        sources.addAll(sourcesOf(pkg, block));
      } catch (IllegalArgumentException e) {
        errors.add(e.getMessage());
      }
    }
    if (!errors.isEmpty()) {
      return errors;
    }
    return compile(sources);
  }

  /**
   * The package a file's blocks are compiled in: {@code crd-gen/README.md} → docs.crd_gen.readme.
   */
  static String packageOf(String file) {
    StringBuilder pkg = new StringBuilder("docs");
    for (String part : file.replaceFirst("(?i)\\.md$", "").split("/", -1)) {
      String id = part.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "_");
      pkg.append('.').append(Character.isDigit(id.charAt(0)) ? "_" + id : id);
    }
    return pkg.toString();
  }

  private static List<Source> sourcesOf(String pkg, JavaBlock block) {
    List<String> lines = block.lines();
    String code = JavaText.code(String.join("\n", lines));
    List<String> codeLines = List.of(code.split("\n", -1));
    int first = 0;
    while (first < lines.size() && codeLines.get(first).isBlank()) {
      first++;
    }
    String rest = String.join("\n", codeLines.subList(first, codeLines.size())).strip();
    boolean unit =
        rest.startsWith("package ")
            || rest.startsWith("import ")
            || TYPE_START.matcher(rest).matches();
    // the leading package and import lines of the block
    String blockPackage = null;
    List<Integer> header = new ArrayList<>();
    int body = 0;
    for (int k = 0; k < lines.size(); k++) {
      String c = codeLines.get(k).strip();
      if (c.isEmpty()) {
        continue;
      }
      Matcher p = PACKAGE.matcher(c);
      if (p.find()) {
        blockPackage = p.group(1);
      } else if (!c.startsWith("import ")) {
        break;
      }
      header.add(k);
      body = k + 1;
    }
    List<Source> sources = new ArrayList<>();
    if (unit && !block.given().isEmpty()) {
      throw new IllegalArgumentException(
          block.file()
              + ":"
              + block.fenceLine()
              + ": this block is a compilation unit (it starts with package, import or a type), so"
              + " 'given' has nothing to give to; declare what it needs in the block");
    }
    if (!unit) {
      Source s = new Source(pkg, "Snippet_" + block.fenceLine(), block);
      s.add("package " + pkg + ";");
      addImports(s, block, header);
      s.add("final class Snippet_" + block.fenceLine() + " {");
      s.add("  void snippet(" + block.given() + ") throws Exception {");
      for (int k = body; k < lines.size(); k++) {
        s.add(lines.get(k), k);
      }
      s.add("  }");
      s.add("}");
      sources.add(s);
      return sources;
    }
    // a compilation unit: one source per top-level type, each with the block's header
    String target = blockPackage != null ? blockPackage : pkg;
    int depth = 0;
    int parens = 0; // braces inside an annotation's parentheses do not end a declaration
    int segmentStart = -1;
    for (int k = body; k < lines.size(); k++) {
      String c = codeLines.get(k);
      if (segmentStart < 0 && !c.isBlank()) {
        segmentStart = k;
      }
      for (int x = 0; x < c.length(); x++) {
        char ch = c.charAt(x);
        if (ch == '(') {
          parens++;
        } else if (ch == ')') {
          parens--;
        } else if (ch == '{') {
          depth++;
        } else if (ch == '}') {
          depth--;
          if (depth == 0 && parens == 0) {
            sources.add(typeSource(target, block, header, lines, codeLines, segmentStart, k));
            segmentStart = -1;
          }
        }
      }
    }
    if (segmentStart >= 0) {
      throw new IllegalArgumentException(
          block.file()
              + ":"
              + block.markdownLine(segmentStart)
              + ": the declaration that starts here never ends (unbalanced braces) in the ```java"
              + " block at line "
              + block.fenceLine());
    }
    return sources;
  }

  private static Source typeSource(
      String pkg,
      JavaBlock block,
      List<Integer> header,
      List<String> lines,
      List<String> codeLines,
      int from,
      int to) {
    Matcher name = TYPE_NAME.matcher(String.join("\n", codeLines.subList(from, to + 1)));
    if (!name.find()) {
      throw new IllegalArgumentException(
          block.file()
              + ":"
              + block.markdownLine(from)
              + ": this block is compiled as a compilation unit (it starts with package, import or"
              + " a type), but the code here is not a type declaration");
    }
    Source s = new Source(pkg, name.group(1), block);
    boolean packaged = false;
    for (int k : header) {
      if (PACKAGE.matcher(lines.get(k)).find()) {
        s.add(lines.get(k), k);
        packaged = true;
      }
    }
    if (!packaged) {
      s.add("package " + pkg + ";");
    }
    addImports(s, block, header);
    for (int k = from; k <= to; k++) {
      s.add(lines.get(k), k);
    }
    return s;
  }

  private static void addImports(Source s, JavaBlock block, List<Integer> header) {
    DEFAULT_IMPORTS.forEach(s::add);
    block.imports().forEach(s::add);
    for (int k : header) {
      if (!PACKAGE.matcher(block.lines().get(k)).find()) {
        s.add(block.lines().get(k), k);
      }
    }
  }

  private List<String> compile(List<Source> sources) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new IllegalStateException("no system Java compiler: run the build on a JDK, not a JRE");
    }
    Path out;
    try {
      out = Files.createTempDirectory("docs-check");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
      List<String> options =
          List.of("-classpath", classpath, "-d", out.toString(), "-proc:none", "-Xmaxerrs", "1000");
      boolean ok = javac.getTask(null, null, diagnostics, options, null, sources).call();
      List<String> errors = new ArrayList<>();
      for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
        if (d.getKind() == Diagnostic.Kind.ERROR) {
          errors.add(describe(d));
        }
      }
      if (!ok && errors.isEmpty()) {
        errors.add("javac failed without an error diagnostic");
      }
      return errors;
    } finally {
      deleteTree(out);
    }
  }

  private static String describe(Diagnostic<? extends JavaFileObject> d) {
    String message = d.getMessage(Locale.ROOT);
    if (!(d.getSource() instanceof Source s)) {
      return message;
    }
    int sourceLine = (int) d.getLineNumber();
    int index =
        sourceLine >= 1 && sourceLine <= s.blockLine.size() ? s.blockLine.get(sourceLine - 1) : -1;
    JavaBlock block = s.block;
    if (index < 0) {
      // a line the checker added: an import of the snippet comment or the wrapper
      String line =
          sourceLine >= 1 && sourceLine <= s.text.size() ? s.text.get(sourceLine - 1) : "";
      return block.file()
          + ":"
          + block.fenceLine()
          + ": "
          + message
          + "\n    in the line the checker added for the ```java block at line "
          + block.fenceLine()
          + ": "
          + line.strip();
    }
    return block.file()
        + ":"
        + block.markdownLine(index)
        + ": "
        + message
        + "\n    "
        + block.lines().get(index).strip()
        + "\n    (in the ```java block at line "
        + block.fenceLine()
        + ")";
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete " + root, e);
    }
  }

  /** One generated source file, with the block line behind each of its lines (-1: added). */
  private static final class Source extends SimpleJavaFileObject {
    private final JavaBlock block;
    private final List<String> text = new ArrayList<>();
    private final List<Integer> blockLine = new ArrayList<>();

    Source(String pkg, String simpleName, JavaBlock block) {
      super(
          URI.create(
              "string:///" + pkg.replace('.', '/') + "/" + simpleName + Kind.SOURCE.extension),
          Kind.SOURCE);
      this.block = block;
    }

    void add(String line) {
      add(line, -1);
    }

    void add(String line, int index) {
      text.add(line);
      blockLine.add(index);
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return String.join("\n", text) + "\n";
    }
  }
}
