package dev.converge.benchmarks.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a JVM's start maps instead of loading and linking its classes one by one, by the JDK that
 * runs the operator: up to JDK 24 a dynamic class-data-sharing archive ({@code
 * -XX:ArchiveClassesAtExit} to write it, {@code -XX:SharedArchiveFile} to map it); from JDK 25 on
 * its ahead-of-time cache ({@code -XX:AOTCacheOutput}, {@code -XX:AOTCache}), which also holds the
 * classes already linked and the training start's method profiles.
 */
public enum StartupArchive {
  CLASS_DATA("-XX:ArchiveClassesAtExit=", "-XX:SharedArchiveFile=", "operator.jsa"),
  AHEAD_OF_TIME_CACHE("-XX:AOTCacheOutput=", "-XX:AOTCache=", "operator.aot");

  private static final Pattern JAVA_VERSION =
      Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

  private final String write;
  private final String use;
  private final String fileName;

  StartupArchive(String write, String use, String fileName) {
    this.write = write;
    this.use = use;
    this.fileName = fileName;
  }

  /** The option with which a training start writes the archive at {@code file} as it exits. */
  public String writeOption(Path file) {
    return write + file;
  }

  /** The option with which a start maps the archive at {@code file}. */
  public String useOption(Path file) {
    return use + file;
  }

  /** The archive's file name in the run's folder. */
  public String fileName() {
    return fileName;
  }

  /**
   * The archive for the operator started by {@code launcher}, the first word of its command: the
   * ahead-of-time cache when it is the {@code java} of a JDK 25 or later, a class-data-sharing
   * archive otherwise (an older JDK, or a command the benchmark cannot tell the JDK of).
   */
  public static StartupArchive forLauncher(String launcher) {
    return featureVersion(launcher).orElse(0) >= 25 ? AHEAD_OF_TIME_CACHE : CLASS_DATA;
  }

  /**
   * The feature version of the JDK whose {@code bin/java} is {@code launcher} (links followed),
   * from its {@code release} file; empty when it is not one.
   */
  public static OptionalInt featureVersion(String launcher) {
    try {
      Path java = Path.of(launcher).toRealPath();
      Path home = java.getParent() == null ? null : java.getParent().getParent();
      if (home == null || !Files.isRegularFile(home.resolve("release"))) {
        return OptionalInt.empty();
      }
      Matcher m = JAVA_VERSION.matcher(Files.readString(home.resolve("release")));
      return m.find() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
    } catch (IOException | RuntimeException e) {
      return OptionalInt.empty();
    }
  }
}
