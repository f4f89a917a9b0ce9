package dev.converge.crd.build;

import dev.converge.crd.CrdGenerationException;
import dev.converge.crd.CrdGenerator;
import dev.converge.crd.GeneratedCrd;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The build step: finds the custom resource classes of a project and writes one YAML file per CRD,
 * plus an index ({@value #INDEX_FILE}) listing them, into each output folder. Run it in the {@code
 * process-classes} phase with exec-maven-plugin (see crd-gen/README.md), so the files land in
 * {@code target/} and in the jar under {@value GeneratedCrd#RESOURCE_FOLDER}.
 *
 * <pre>
 * --classes DIR   folder of compiled classes to scan (repeatable; default target/classes)
 * --class NAME    a custom resource class to generate (repeatable; replaces scanning)
 * --output DIR    folder to write into (repeatable; default target/classes/META-INF/converge/crds)
 * --fail-on-warnings   fail instead of printing warnings
 * </pre>
 *
 * <p>It fails (an exception, never by ending the JVM, so Maven reports it) when a class cannot be
 * generated or when no custom resource class is found. Warnings (a {@code @Default} that cannot
 * take effect, versions whose schemas differ without conversion) are printed to standard error as
 * {@code [WARNING] converge-crd-gen: ...}, each naming the class or field and the fix.
 */
public final class GenerateCrds {

  /** Name of the index file, one CRD file name per line. */
  public static final String INDEX_FILE = "crds.list";

  private GenerateCrds() {}

  /**
   * The build step's entry point, for exec-maven-plugin or a plain {@code java} command; loads
   * classes through the thread's context class loader and prints warnings to standard error.
   *
   * @param args the options above
   */
  public static void main(String[] args) {
    List<Path> written =
        run(
            Arrays.asList(args),
            Thread.currentThread().getContextClassLoader(),
            warning -> System.err.println("[WARNING] converge-crd-gen: " + warning));
    System.out.println(
        "converge-crd-gen: wrote "
            + written.stream().map(Path::toString).collect(Collectors.joining(", ")));
  }

  /**
   * Parses the arguments, generates and writes. Warnings are dropped.
   *
   * @param args the options above
   * @param loader where the custom resource classes are loaded from
   * @return every file written
   */
  public static List<Path> run(List<String> args, ClassLoader loader) {
    return run(args, loader, warning -> {});
  }

  /**
   * Parses the arguments, generates and writes.
   *
   * @param args the options above
   * @param loader where the custom resource classes are loaded from
   * @param warnings receives each warning, unless {@code --fail-on-warnings} turns them into an
   *     error
   * @return every file written
   */
  public static List<Path> run(List<String> args, ClassLoader loader, Consumer<String> warnings) {
    List<Path> classFolders = new ArrayList<>();
    List<String> classNames = new ArrayList<>();
    List<Path> outputs = new ArrayList<>();
    boolean failOnWarnings = false;
    for (int i = 0; i < args.size(); i++) {
      String option = args.get(i);
      if (option.equals("--fail-on-warnings")) {
        failOnWarnings = true;
        continue;
      }
      if (i + 1 >= args.size()) {
        throw new IllegalArgumentException(option + " needs a value; usage: " + usage());
      }
      String value = args.get(++i);
      switch (option) {
        case "--classes" -> classFolders.add(Path.of(value));
        case "--class" -> classNames.add(value);
        case "--output" -> outputs.add(Path.of(value));
        default ->
            throw new IllegalArgumentException("unknown option " + option + "; usage: " + usage());
      }
    }
    if (classFolders.isEmpty()) {
      classFolders.add(Path.of("target", "classes"));
    }
    if (outputs.isEmpty()) {
      outputs.add(Path.of("target", "classes").resolve(GeneratedCrd.RESOURCE_FOLDER));
    }
    List<Class<?>> resources =
        classNames.isEmpty() ? scan(classFolders, loader) : load(classNames, loader);
    if (resources.isEmpty()) {
      throw new CrdGenerationException(
          "no custom resource classes (CustomResource subclasses with @Group) in "
              + classFolders
              + "; pass --classes with the compiled classes folder or --class with class names");
    }
    List<GeneratedCrd> crds = CrdGenerator.generate(resources);
    List<String> all = crds.stream().flatMap(crd -> crd.warnings().stream()).toList();
    if (failOnWarnings && !all.isEmpty()) {
      throw new CrdGenerationException(
          "--fail-on-warnings: " + all.size() + " warning(s):\n  " + String.join("\n  ", all));
    }
    all.forEach(warnings);
    return write(crds, outputs);
  }

  private static String usage() {
    return "[--classes DIR]... [--class NAME]... [--output DIR]... [--fail-on-warnings]";
  }

  /** Every concrete {@link CustomResource} subclass with {@code @Group} under the folders. */
  static List<Class<?>> scan(List<Path> folders, ClassLoader loader) {
    List<Class<?>> found = new ArrayList<>();
    for (Path folder : folders) {
      if (!Files.isDirectory(folder)) {
        throw new CrdGenerationException(
            "classes folder "
                + folder.toAbsolutePath()
                + " does not exist; run the"
                + " step after compilation (phase process-classes)");
      }
      List<String> names;
      try (Stream<Path> files = Files.walk(folder)) {
        names =
            files
                .filter(file -> file.toString().endsWith(".class"))
                .map(file -> folder.relativize(file).toString())
                .filter(
                    name ->
                        !name.endsWith("module-info.class") && !name.endsWith("package-info.class"))
                .map(
                    name ->
                        name.substring(0, name.length() - ".class".length())
                            .replace(file(folder), "."))
                .sorted()
                .toList();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list " + folder, e);
      }
      for (String name : names) {
        Class<?> type;
        try {
          type = Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
          throw new CrdGenerationException(
              "cannot load "
                  + name
                  + " from "
                  + folder
                  + " ("
                  + e
                  + "); run the step"
                  + " with the project's compile class path (exec-maven-plugin classpathScope compile)",
              e);
        }
        if (CustomResource.class.isAssignableFrom(type)
            && !Modifier.isAbstract(type.getModifiers())
            && type.isAnnotationPresent(Group.class)) {
          found.add(type);
        }
      }
    }
    return found;
  }

  private static String file(Path folder) {
    return folder.getFileSystem().getSeparator();
  }

  private static List<Class<?>> load(List<String> names, ClassLoader loader) {
    List<Class<?>> classes = new ArrayList<>();
    for (String name : names) {
      try {
        classes.add(Class.forName(name, false, loader));
      } catch (ClassNotFoundException e) {
        throw new CrdGenerationException(
            "custom resource class " + name + " is not on the class path", e);
      }
    }
    return classes;
  }

  private static List<Path> write(List<GeneratedCrd> crds, List<Path> outputs) {
    List<Path> written = new ArrayList<>();
    for (Path output : outputs) {
      try {
        Files.createDirectories(output);
        for (GeneratedCrd crd : crds) {
          Path file = output.resolve(crd.fileName());
          Files.writeString(file, crd.yaml(), StandardCharsets.UTF_8);
          written.add(file);
        }
        Path index = output.resolve(INDEX_FILE);
        Files.writeString(
            index,
            crds.stream().map(GeneratedCrd::fileName).collect(Collectors.joining("\n", "", "\n")),
            StandardCharsets.UTF_8);
        written.add(index);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write CRDs to " + output, e);
      }
    }
    return written;
  }
}
