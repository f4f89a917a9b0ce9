package dev.converge.testing.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConformanceTableTest {

  @Test
  void reportsRoundTripThroughTheirFilesIntoOneRowPerStrategy(@TempDir Path dir) throws Exception {
    ConformanceReport update = new ConformanceReport("update", dir);
    update.add(new ScenarioResult("update", Scenario.NO_OP, "ConfigMap", Verdict.PASS, "0 writes"));
    update.add(new ScenarioResult("update", Scenario.NO_OP, "Secret", Verdict.PASS, "0 writes"));
    update.add(
        new ScenarioResult(
            "update", Scenario.REMOVAL, "ConfigMap", Verdict.NOT_SUPPORTED, "no memory"));
    update.add(
        new ScenarioResult(
            "update", Scenario.ALLOCATIONS, "ConfigMap", Verdict.NOT_RUN, "only Services"));
    ConformanceReport ssa = new ConformanceReport("ssa", dir);
    ssa.add(new ScenarioResult("ssa", Scenario.NO_OP, "ConfigMap", Verdict.PASS, ""));
    ssa.add(new ScenarioResult("ssa", Scenario.NO_OP, "Secret", Verdict.FAIL, "1 write | PATCH"));

    assertThat(Files.exists(dir.resolve("update.json"))).isTrue();
    ssa.add(
        new CaseResult("ssa", ConformanceCase.NUMBER_LIKE_STRINGS, "ConfigMap", Verdict.PASS, ""));
    ssa.add(
        new CaseResult(
            "ssa",
            ConformanceCase.NUMBER_LIKE_STRINGS,
            "Secret",
            Verdict.FAIL,
            "[data.ratio = \"MS4xMA==\"] live holds MS4x"));
    update.add(
        new CaseResult(
            "update", ConformanceCase.NUMBER_LIKE_STRINGS, "ConfigMap", Verdict.PASS, ""));
    ConformanceResults read = ConformanceReport.readAll(List.of(dir));
    assertThat(read.scenarios())
        .hasSize(6)
        .contains(
            new ScenarioResult(
                "update", Scenario.REMOVAL, "ConfigMap", Verdict.NOT_SUPPORTED, "no memory"));
    assertThat(read.cases()).hasSize(3);

    String table = ConformanceTable.markdown(read);

    assertThat(table).startsWith("| strategy | 1. create | 2. no-op |");
    assertThat(table.lines().filter(l -> l.startsWith("| update |")).findFirst().orElseThrow())
        .contains("| pass 2/2 |")
        .contains("not supported [")
        .contains("not run [");
    assertThat(table.lines().filter(l -> l.startsWith("| ssa |")).findFirst().orElseThrow())
        .contains("partial 1/2 **FAIL** Secret [");
    assertThat(table).contains("ssa, no-op: failed on Secret — 1 write \\| PATCH");
    assertThat(table).contains("update, removal: declared limit — no memory");
    assertThat(table).contains("| case | ssa | update |");
    assertThat(
            table
                .lines()
                .filter(l -> l.startsWith("| number-like-strings |"))
                .findFirst()
                .orElseThrow())
        .isEqualTo("| number-like-strings | partial 1/2 **FAIL** Secret [4] | pass 1/1 |");
    assertThat(table)
        .contains(
            "[4] ssa, number-like-strings: failed on Secret — [data.ratio = \"MS4xMA==\"] live holds MS4x");
  }

  @Test
  void theMainClassWritesTheTableToAFile(@TempDir Path dir) throws Exception {
    new ConformanceReport("merge-patch", dir)
        .add(
            new ScenarioResult("merge-patch", Scenario.CREATE, "Deployment", Verdict.PASS, "POST"));
    Path out = dir.resolve("table.md");

    ConformanceTable.main(new String[] {"-o", out.toString(), dir.toString()});

    assertThat(Files.readString(out)).contains("| merge-patch | pass 1/1 |");
  }
}
