package dev.converge.testing.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The machine-readable results of one strategy's run: a JSON {@link ConformanceResults} in {@code
 * <dir>/<strategy>.json}, where dir is the system property {@value #DIR_PROPERTY} or {@code
 * target/conformance}. {@link ConformanceTable} turns such files into the README tables.
 */
public final class ConformanceReport {

  private static final JsonMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  /** System property naming the folder reports are written to. */
  public static final String DIR_PROPERTY = "converge.conformance.dir";

  private final String strategy;
  private final Path file;
  private final List<ScenarioResult> scenarios = new ArrayList<>();
  private final List<CaseResult> cases = new ArrayList<>();

  /**
   * The report of {@code strategy} in the folder {@value #DIR_PROPERTY} names, or {@code
   * target/conformance}. Nothing is written before the first result.
   *
   * @param strategy the strategy's configuration name, which names the file
   */
  public ConformanceReport(String strategy) {
    this(strategy, Path.of(System.getProperty(DIR_PROPERTY, "target/conformance")));
  }

  /**
   * The report of {@code strategy} in {@code dir}. Nothing is written before the first result.
   *
   * @param strategy the strategy's configuration name, which names the file
   * @param dir the folder, created when the first result is written
   */
  public ConformanceReport(String strategy, Path dir) {
    this.strategy = strategy;
    this.file = dir.resolve(strategy.replaceAll("[^A-Za-z0-9._-]", "_") + ".json");
  }

  /**
   * Adds a result and rewrites the file, so an interrupted run still leaves what it found.
   *
   * @param result a result of this report's strategy
   * @throws IllegalArgumentException when the result is of another strategy
   * @throws UncheckedIOException when the file cannot be written
   */
  public synchronized void add(ScenarioResult result) {
    requireOwn(result.strategy());
    scenarios.add(result);
    write();
  }

  /**
   * Adds a case result and rewrites the file.
   *
   * @param result a result of this report's strategy
   * @throws IllegalArgumentException when the result is of another strategy
   * @throws UncheckedIOException when the file cannot be written
   */
  public synchronized void add(CaseResult result) {
    requireOwn(result.strategy());
    cases.add(result);
    write();
  }

  private void requireOwn(String of) {
    if (!of.equals(strategy)) {
      throw new IllegalArgumentException("result for " + of + " in the report of " + strategy);
    }
  }

  /**
   * The file this report writes.
   *
   * @return {@code <dir>/<strategy>.json}
   */
  public Path file() {
    return file;
  }

  /**
   * Results so far.
   *
   * @return a snapshot of the results added
   */
  public synchronized ConformanceResults results() {
    return new ConformanceResults(scenarios, cases);
  }

  private void write() {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, JSON.writeValueAsString(new ConformanceResults(scenarios, cases)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write conformance report " + file, e);
    }
  }

  /**
   * Reads one report file.
   *
   * @param file a file a report wrote
   * @return the results in it
   * @throws UncheckedIOException when the file cannot be read or parsed
   */
  public static ConformanceResults read(Path file) {
    try {
      return JSON.readValue(Files.readString(file), ConformanceResults.class);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read conformance report " + file, e);
    }
  }

  /**
   * Reads every {@code *.json} report in the given files and folders, for a table of several
   * strategies.
   *
   * @param filesOrFolders report files, and folders whose {@code *.json} files are reports
   * @return the results of all of them together
   * @throws UncheckedIOException when a folder cannot be listed or a file read
   */
  public static ConformanceResults readAll(List<Path> filesOrFolders) {
    List<ScenarioResult> scenarios = new ArrayList<>();
    List<CaseResult> cases = new ArrayList<>();
    for (Path path : filesOrFolders) {
      List<Path> files;
      if (Files.isDirectory(path)) {
        try (Stream<Path> listed = Files.list(path)) {
          files = listed.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        } catch (IOException e) {
          throw new UncheckedIOException("cannot list " + path, e);
        }
      } else {
        files = List.of(path);
      }
      for (Path f : files) {
        ConformanceResults r = read(f);
        scenarios.addAll(r.scenarios());
        cases.addAll(r.cases());
      }
    }
    return new ConformanceResults(scenarios, cases);
  }
}
