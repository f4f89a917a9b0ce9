package dev.converge.buildchecks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The project's source tree as the checks see it: the modules the root pom lists, the Java files
 * under each module's {@code src/<set>/java}, and which module's main code declares each package.
 */
final class SourceTree {

  private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

  private final Path root;
  private final List<String> modules;

  SourceTree(Path root) {
    this.root = root.toAbsolutePath().normalize();
    this.modules = new ArrayList<>();
    Matcher m = MODULE.matcher(read(this.root.resolve("pom.xml")));
    while (m.find()) {
      modules.add(m.group(1).trim());
    }
    if (modules.isEmpty()) {
      throw new IllegalStateException(this.root.resolve("pom.xml") + " lists no <module>");
    }
  }

  /** The checkout this build runs in: the {@code converge.root} system property the pom sets. */
  static SourceTree ofThisBuild() {
    String root = System.getProperty("converge.root");
    if (root == null) {
      throw new IllegalStateException(
          "system property converge.root is not set; build-checks/pom.xml sets it for surefire");
    }
    return new SourceTree(Path.of(root));
  }

  Path root() {
    return root;
  }

  List<String> modules() {
    return List.copyOf(modules);
  }

  /**
   * Every Java file of {@code module} under {@code src/<set>/java}, main and test sets included.
   */
  List<Path> javaFiles(String module) {
    Path src = root.resolve(module).resolve("src");
    if (!Files.isDirectory(src)) {
      return List.of();
    }
    List<Path> files = new ArrayList<>();
    try (Stream<Path> sets = Files.list(src)) {
      for (Path set : sets.sorted().toList()) {
        Path java = set.resolve("java");
        if (Files.isDirectory(java)) {
          try (Stream<Path> walk = Files.walk(java)) {
            walk.filter(p -> p.toString().endsWith(".java")).sorted().forEach(files::add);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + src, e);
    }
    return files;
  }

  /** The {@code module-info.java} of {@code module}'s main code, when it has one. */
  Path moduleInfo(String module) {
    return root.resolve(module).resolve("src/main/java/module-info.java");
  }

  /**
   * Which module's main code declares each package: a package is a directory of {@code
   * src/main/java} that holds a Java file.
   *
   * @throws IllegalStateException naming both modules when two declare the same package (a split
   *     package, which the module system refuses)
   */
  Map<String, String> packageOwners() {
    Map<String, String> owners = new TreeMap<>();
    for (String module : modules) {
      Path main = root.resolve(module).resolve("src/main/java");
      for (Path file : javaFiles(module)) {
        if (!file.startsWith(main) || file.getFileName().toString().equals("module-info.java")) {
          continue;
        }
        String pkg = main.relativize(file.getParent()).toString().replace('/', '.');
        String before = owners.putIfAbsent(pkg, module);
        if (before != null && !before.equals(module)) {
          throw new IllegalStateException(
              "package " + pkg + " is declared by both " + before + " and " + module);
        }
      }
    }
    return owners;
  }

  /** {@code file} relative to the root, with forward slashes, as reports name it. */
  String relative(Path file) {
    return root.relativize(file.toAbsolutePath().normalize()).toString().replace('\\', '/');
  }

  static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
