package dev.converge.testing.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Turns conformance report files into the Markdown tables of the README: the scenarios (one row per
 * strategy, one column per scenario) and the cases (one row per case, one column per strategy); a
 * cell says how many subjects passed, names the ones that failed, and points to a footnote with
 * what was observed, the declared reason for a limit, or why the check did not run.
 *
 * <pre>
 * java -cp ... dev.converge.testing.conformance.ConformanceTable [-o table.md] report-dir-or-file...
 * </pre>
 */
public final class ConformanceTable {

  private ConformanceTable() {}

  /**
   * Prints the tables of the given report files and folders, or writes them to the file after
   * {@code -o}; prints the usage when no report is given.
   *
   * @param args {@code [-o table.md] report-dir-or-file...}
   * @throws IOException when the output file cannot be written
   */
  public static void main(String[] args) throws IOException {
    Path out = null;
    List<Path> inputs = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("-o") && i + 1 < args.length) {
        out = Path.of(args[++i]);
      } else {
        inputs.add(Path.of(args[i]));
      }
    }
    if (inputs.isEmpty()) {
      System.err.println("usage: ConformanceTable [-o table.md] <report file or folder>...");
      return;
    }
    String table = markdown(ConformanceReport.readAll(inputs));
    if (out == null) {
      System.out.print(table);
    } else {
      Files.writeString(out, table);
    }
  }

  /**
   * The Markdown tables (with footnotes) for these results.
   *
   * @param all the results of one or more strategies
   * @return the scenario table, the case table when there are case results, and the footnotes
   */
  public static String markdown(ConformanceResults all) {
    List<String> notes = new ArrayList<>();
    StringBuilder md = new StringBuilder(scenarios(all.scenarios(), notes));
    if (!all.cases().isEmpty()) {
      md.append('\n').append(cases(all.cases(), notes));
    }
    if (!notes.isEmpty()) {
      md.append('\n');
      for (int i = 0; i < notes.size(); i++) {
        md.append('[').append(i + 1).append("] ").append(notes.get(i)).append("  \n");
      }
    }
    return md.toString();
  }

  private static String cases(List<CaseResult> results, List<String> notes) {
    List<String> strategies =
        new ArrayList<>(
            new java.util.LinkedHashSet<>(results.stream().map(CaseResult::strategy).toList()));
    StringBuilder md = new StringBuilder("| case |");
    StringBuilder rule = new StringBuilder("|---|");
    for (String s : strategies) {
      md.append(' ').append(s).append(" |");
      rule.append("---|");
    }
    md.append('\n').append(rule).append('\n');
    for (ConformanceCase c : ConformanceCase.values()) {
      List<CaseResult> row = results.stream().filter(r -> r.check() == c).toList();
      if (row.isEmpty()) {
        continue;
      }
      md.append("| ").append(c.caseName()).append(" |");
      for (String s : strategies) {
        List<ScenarioResult> cell =
            row.stream()
                .filter(r -> r.strategy().equals(s))
                .map(
                    r ->
                        new ScenarioResult(
                            r.strategy(), Scenario.CREATE, r.subject(), r.verdict(), r.detail()))
                .toList();
        md.append(' ').append(cell(s, c.caseName(), cell, notes)).append(" |");
      }
      md.append('\n');
    }
    md.append('\n').append("Cells count subjects: passed / run.\n\n");
    for (ConformanceCase c : ConformanceCase.values()) {
      md.append("- **").append(c.caseName()).append("** — ").append(c.description()).append('\n');
    }
    return md.toString();
  }

  private static String scenarios(List<ScenarioResult> results, List<String> notes) {
    Map<String, List<ScenarioResult>> byStrategy = new LinkedHashMap<>();
    results.forEach(r -> byStrategy.computeIfAbsent(r.strategy(), k -> new ArrayList<>()).add(r));
    StringBuilder md = new StringBuilder("| strategy |");
    StringBuilder rule = new StringBuilder("|---|");
    for (Scenario s : Scenario.values()) {
      md.append(' ').append(s.number()).append(". ").append(s.shortName()).append(" |");
      rule.append("---|");
    }
    md.append('\n').append(rule).append('\n');
    for (Map.Entry<String, List<ScenarioResult>> row : byStrategy.entrySet()) {
      md.append("| ").append(row.getKey()).append(" |");
      for (Scenario s : Scenario.values()) {
        List<ScenarioResult> cell = row.getValue().stream().filter(r -> r.scenario() == s).toList();
        md.append(' ').append(cell(row.getKey(), s.shortName(), cell, notes)).append(" |");
      }
      md.append('\n');
    }
    md.append('\n')
        .append("Cells count kinds: passed / run, over ")
        .append(
            String.join(
                ", ",
                new java.util.LinkedHashSet<>(
                    results.stream().map(ScenarioResult::subject).toList())))
        .append(".\n\n");
    for (Scenario s : Scenario.values()) {
      md.append(s.number())
          .append(". **")
          .append(s.shortName())
          .append("** — ")
          .append(s.description())
          .append("  \n");
    }
    return md.toString();
  }

  private static String cell(
      String strategy, String check, List<ScenarioResult> cell, List<String> notes) {
    if (cell.isEmpty()) {
      return "—";
    }
    List<ScenarioResult> ran = cell.stream().filter(r -> r.verdict() != Verdict.NOT_RUN).toList();
    if (ran.isEmpty()) {
      return "not run "
          + note(notes, strategy + ", " + check + ": not run — " + cell.get(0).detail());
    }
    long passed = ran.stream().filter(r -> r.verdict() == Verdict.PASS).count();
    List<ScenarioResult> failed = ran.stream().filter(r -> r.verdict() == Verdict.FAIL).toList();
    List<ScenarioResult> unsupported =
        ran.stream().filter(r -> r.verdict() == Verdict.NOT_SUPPORTED).toList();
    StringBuilder text = new StringBuilder();
    text.append(passed == ran.size() ? "pass " : passed == 0 ? "" : "partial ")
        .append(passed)
        .append('/')
        .append(ran.size());
    if (!failed.isEmpty()) {
      text.append(" **FAIL** ")
          .append(subjects(failed))
          .append(' ')
          .append(
              note(
                  notes,
                  strategy
                      + ", "
                      + check
                      + ": failed on "
                      + subjects(failed)
                      + " — "
                      + failed.get(0).detail()));
    }
    if (!unsupported.isEmpty()) {
      text.append(" not supported ")
          .append(unsupported.size() == ran.size() ? "" : "on " + subjects(unsupported) + " ")
          .append(
              note(
                  notes,
                  strategy + ", " + check + ": declared limit — " + unsupported.get(0).detail()));
    }
    return text.toString().trim();
  }

  private static String subjects(List<ScenarioResult> results) {
    return String.join(", ", new TreeSet<>(results.stream().map(ScenarioResult::subject).toList()));
  }

  private static String note(List<String> notes, String text) {
    String clean = text.replace("|", "\\|").replace("\n", " ");
    if (clean.length() > 400) {
      clean = clean.substring(0, 400) + "…";
    }
    notes.add(clean);
    return "[" + notes.size() + "]";
  }
}
