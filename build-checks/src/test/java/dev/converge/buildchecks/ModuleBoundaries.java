package dev.converge.buildchecks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The two rules that keep a module's {@code internal} packages its own: no module-info exports one,
 * and no source file of one module names a type of another module's internal package (by import,
 * static import, wildcard import or fully qualified name in code). Comments and string literals do
 * not count.
 */
final class ModuleBoundaries {

  private static final Pattern EXPORTS =
      Pattern.compile("\\bexports\\s+([\\w.]+)(\\s+to\\s+[\\w.,\\s]+)?\\s*;");

  /** A qualified type name whose package has an {@code internal} segment: group 1 the package. */
  private static final Pattern INTERNAL_TYPE =
      Pattern.compile(
          "(?<![\\w.])((?:[a-z_][a-z0-9_]*\\.)+internal(?:\\.[a-z_][a-z0-9_]*)*)\\.([A-Z]\\w*)");

  /** {@code import a.b.internal.*;}: group 1 the package. */
  private static final Pattern INTERNAL_WILDCARD =
      Pattern.compile(
          "\\bimport\\s+((?:[a-z_][a-z0-9_]*\\.)+internal(?:\\.[a-z_][a-z0-9_]*)*)\\s*\\.\\s*\\*");

  private ModuleBoundaries() {}

  /** Every {@code exports} of a package whose name has an {@code internal} segment. */
  static List<Violation> internalExports(SourceTree tree) {
    List<Violation> found = new ArrayList<>();
    for (String module : tree.modules()) {
      Path info = tree.moduleInfo(module);
      if (!Files.isRegularFile(info)) {
        continue;
      }
      String text = SourceTree.read(info);
      String code = JavaText.withoutCommentsAndLiterals(text);
      Matcher m = EXPORTS.matcher(code);
      while (m.find()) {
        String pkg = m.group(1);
        if (isInternal(pkg)) {
          int line = JavaText.lineOf(code, m.start());
          found.add(new Violation(tree.relative(info), line, JavaText.line(text, line), pkg));
        }
      }
    }
    return found;
  }

  /**
   * Every place where a source file of one module names a type of an internal package that another
   * module's main code declares. Internal packages of third-party libraries are not this check's
   * business.
   */
  static List<Violation> crossModuleInternalUses(SourceTree tree) {
    Map<String, String> owners = tree.packageOwners();
    List<Violation> found = new ArrayList<>();
    for (String module : tree.modules()) {
      for (Path file : tree.javaFiles(module)) {
        String text = SourceTree.read(file);
        String code = JavaText.withoutCommentsAndLiterals(text);
        for (Pattern pattern : List.of(INTERNAL_TYPE, INTERNAL_WILDCARD)) {
          Matcher m = pattern.matcher(code);
          while (m.find()) {
            String pkg = m.group(1);
            String owner = owners.get(pkg);
            if (owner == null || owner.equals(module)) {
              continue;
            }
            String name = pattern == INTERNAL_TYPE ? pkg + "." + m.group(2) : pkg + ".*";
            int line = JavaText.lineOf(code, m.start());
            found.add(new Violation(tree.relative(file), line, JavaText.line(text, line), name));
          }
        }
      }
    }
    found.sort(
        (a, b) ->
            a.file().equals(b.file())
                ? Integer.compare(a.line(), b.line())
                : a.file().compareTo(b.file()));
    return found;
  }

  static boolean isInternal(String pkg) {
    return ("." + pkg + ".").contains(".internal.");
  }
}
