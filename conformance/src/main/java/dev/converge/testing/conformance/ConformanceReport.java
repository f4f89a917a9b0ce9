package dev.converge.testing.conformance;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import tools.jackson.core.type.TypeReference;

/**
 * The machine-readable results of one strategy's run: a JSON array of {@link ScenarioResult}s in
 * {@code <dir>/<strategy>.json}, where dir is the system property {@value #DIR_PROPERTY} or {@code
 * target/conformance}. {@link ConformanceTable} turns such files into the README table.
 */
public final class ConformanceReport {

  /** System property naming the folder reports are written to. */
  public static final String DIR_PROPERTY = "converge.conformance.dir";

  private final String strategy;
  private final Path file;
  private final List<ScenarioResult> results = new ArrayList<>();

  public ConformanceReport(String strategy) {
    this(strategy, Path.of(System.getProperty(DIR_PROPERTY, "target/conformance")));
  }

  public ConformanceReport(String strategy, Path dir) {
    this.strategy = strategy;
    this.file = dir.resolve(strategy.replaceAll("[^A-Za-z0-9._-]", "_") + ".json");
  }

  /** Adds a result and rewrites the file, so an interrupted run still leaves what it found. */
  public synchronized void add(ScenarioResult result) {
    if (!result.strategy().equals(strategy)) {
      throw new IllegalArgumentException("result for " + result.strategy() + " in the report of " + strategy);
    }
    results.add(result);
    write();
  }

  /** The file this report writes. */
  public Path file() {
    return file;
  }

  /** Results so far. */
  public synchronized List<ScenarioResult> results() {
    return List.copyOf(results);
  }

  private void write() {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, Serialization.jsonMapper().writerWithDefaultPrettyPrinter().writeValueAsString(results));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write conformance report " + file, e);
    }
  }

  /** Reads one report file. */
  public static List<ScenarioResult> read(Path file) {
    try {
      return Serialization.jsonMapper().readValue(Files.readString(file), new TypeReference<List<ScenarioResult>>() {});
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read conformance report " + file, e);
    }
  }

  /** Reads every {@code *.json} report in the given files and folders. */
  public static List<ScenarioResult> readAll(List<Path> filesOrFolders) {
    List<ScenarioResult> all = new ArrayList<>();
    for (Path path : filesOrFolders) {
      if (Files.isDirectory(path)) {
        try (Stream<Path> files = Files.list(path)) {
          files.filter(f -> f.toString().endsWith(".json")).sorted().forEach(f -> all.addAll(read(f)));
        } catch (IOException e) {
          throw new UncheckedIOException("cannot list " + path, e);
        }
      } else {
        all.addAll(read(path));
      }
    }
    return all;
  }
}
