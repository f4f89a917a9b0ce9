package dev.converge.benchmarks.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a run's figures as JSON, a markdown table and PNG plots, and the summary over every run in
 * a results folder.
 */
public final class Reports {

  private static final JsonMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private final Path folder;

  public Reports(Path folder) {
    this.folder = folder;
  }

  /** The file name stem of a size: {@code n300-r1}. */
  public static String stem(int objects, int replicas) {
    return "n" + objects + "-r" + replicas;
  }

  /**
   * Writes {@code <stem>.json}, {@code <stem>.md} and {@code <stem>-running.png}; returns the
   * table.
   */
  public String write(String stem, String machine, List<RunFigures> runs) {
    try {
      Files.createDirectories(folder);
      Files.writeString(folder.resolve(stem + ".json"), JSON.writeValueAsString(runs));
      String table = "Machine: " + machine + "\n\n" + table(runs) + threads(runs);
      Files.writeString(folder.resolve(stem + ".md"), table);
      LineChart chart =
          new LineChart(
              "Objects done over time (" + stem + ")",
              "seconds since the first create",
              "objects Running / rolled out",
              false);
      for (RunFigures run : runs) {
        List<double[]> points = new ArrayList<>();
        points.add(new double[] {0, 0});
        List<Double> done = run.runningOverTime();
        for (int i = 0; i < done.size(); i++) {
          points.add(new double[] {done.get(i), i + 1});
        }
        chart.add(new LineChart.Series(run.mode(), points));
      }
      chart.write(folder.resolve(stem + "-running.png"));
      return table;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write results to " + folder, e);
    }
  }

  /**
   * Reads every {@code n*.json} of the folder and writes {@code summary.md} and {@code heap.png}.
   */
  public String summarize() {
    List<RunFigures> all = new ArrayList<>();
    try (Stream<Path> files = Files.list(folder)) {
      for (Path file :
          files.filter(p -> p.getFileName().toString().matches("n\\d+-r\\d+\\.json")).toList()) {
        all.addAll(JSON.readValue(file.toFile(), new TypeReference<List<RunFigures>>() {}));
      }
      all.sort(
          Comparator.comparingInt(RunFigures::objects)
              .thenComparingInt(RunFigures::replicas)
              .thenComparing(RunFigures::mode, Comparator.reverseOrder()));
      String table = table(all) + "\n" + marginal(all);
      Files.writeString(folder.resolve("summary.md"), table);
      List<double[]> heap =
          all.stream()
              .filter(r -> r.heapAfterGcMiB() != null)
              .map(r -> new double[] {r.objects(), r.heapAfterGcMiB()})
              .sorted(Comparator.comparingDouble(p -> p[0]))
              .toList();
      if (!heap.isEmpty()) {
        new LineChart("Operator heap after a full GC", "AppDeployments", "MiB", true)
            .add(new LineChart.Series("operator heap after full GC", heap))
            .write(folder.resolve("heap.png"));
      }
      return table;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot summarize the results in " + folder, e);
    }
  }

  /**
   * Replaces the part of {@code readme} between {@code <!-- results:start -->} and {@code <!--
   * results:end -->} with the machine line of every size, the summary table and the plots.
   */
  public void updateReadme(Path readme, String summary) {
    String start = "<!-- results:start -->";
    String end = "<!-- results:end -->";
    try {
      String text = Files.readString(readme);
      int a = text.indexOf(start);
      int b = text.indexOf(end);
      if (a < 0 || b < a) {
        throw new IllegalStateException(
            readme
                + " has no section between "
                + start
                + " and "
                + end
                + "; add the two markers where the results belong");
      }
      Path base = readme.toAbsolutePath().getParent().relativize(folder.toAbsolutePath());
      StringBuilder section = new StringBuilder(start).append("\n");
      List<Path> tables;
      try (Stream<Path> files = Files.list(folder)) {
        tables =
            files
                .filter(p -> p.getFileName().toString().matches("n\\d+-r\\d+\\.md"))
                .sorted(
                    Comparator.comparingInt(
                            (Path p) ->
                                Integer.parseInt(
                                    p.getFileName().toString().replaceAll("^n(\\d+)-.*", "$1")))
                        .thenComparing(Path::toString))
                .toList();
      }
      for (Path table : tables) {
        String stem = table.getFileName().toString().replace(".md", "");
        String machine = Files.readAllLines(table).get(0).replaceFirst("^Machine: ", "");
        section.append("- `").append(stem).append("`: ").append(machine).append("\n");
      }
      section.append("\n").append(summary).append("\n");
      for (Path table : tables) {
        String stem = table.getFileName().toString().replace(".md", "");
        section
            .append("![")
            .append(stem)
            .append(": objects done over time](")
            .append(base.resolve(stem + "-running.png"))
            .append(")\n");
      }
      if (Files.exists(folder.resolve("heap.png"))) {
        section
            .append("![operator heap after a full GC over objects](")
            .append(base.resolve("heap.png"))
            .append(")\n");
      }
      Files.writeString(readme, text.substring(0, a) + section + text.substring(b));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot update " + readme, e);
    }
  }

  /** One column per run; the floor's figures follow the operator's of the same size. */
  public static String table(List<RunFigures> runs) {
    List<String[]> rows = new ArrayList<>();
    rows.add(row("", runs, r -> r.mode() + " " + r.objects() + "×" + r.replicas()));
    rows.add(row("time until all Running (s)", runs, r -> f2(r.convergeSeconds())));
    rows.add(
        row(
            "ratio to the floor",
            runs,
            r ->
                floorOf(r, runs) == null
                    ? "–"
                    : f2(r.convergeSeconds() / floorOf(r, runs).convergeSeconds()) + "×"));
    rows.add(row("objects per second", runs, r -> f1(r.objectsPerSecond())));
    rows.add(
        row(
            "client writes (per object)",
            runs,
            r -> r.clientWrites() + " (" + f2(r.writesPerObject()) + ")"));
    rows.add(
        row(
            "client reads (per object)",
            runs,
            r -> r.clientReads() + " (" + f2(r.readsPerObject()) + ")"));
    rows.add(
        row("client watches opened while converging", runs, r -> Long.toString(r.clientWatches())));
    rows.add(
        row("everyone else's writes / reads", runs, r -> r.otherWrites() + " / " + r.otherReads()));
    rows.add(
        row(
            "writes in idle seconds",
            runs,
            r -> r.idleWrites() == null ? "–" : r.idleWrites() + " in " + r.idleSeconds() + " s"));
    rows.add(
        row(
            "ConfigMap fan-out: every pod on the new hash (s)",
            runs,
            r ->
                r.fanoutSeconds() == null
                    ? "–"
                    : f2(r.fanoutSeconds()) + " (" + r.fanoutConfigMaps() + ")"));
    rows.add(
        row(
            "reconciles per AppDeployment while converging",
            runs,
            r -> opt(r.reconcilesPerObject(), 2)));
    rows.add(
        row(
            "control plane CPU while converging (s)",
            runs,
            r ->
                r.controlPlaneCpuSeconds().isEmpty()
                    ? "–"
                    : f2(
                        r.controlPlaneCpuSeconds().values().stream()
                            .mapToDouble(Double::doubleValue)
                            .sum())));
    for (String component : ControlPlaneCpu.COMPONENTS) {
      if (runs.stream().anyMatch(r -> r.controlPlaneCpuSeconds().containsKey(component))) {
        rows.add(
            row("— " + component, runs, r -> opt(r.controlPlaneCpuSeconds().get(component), 2)));
      }
    }
    rows.add(row("operator CPU while converging (s)", runs, r -> opt(r.cpuSecondsConverge(), 2)));
    rows.add(row("CPU per AppDeployment (ms)", runs, r -> opt(r.cpuMsPerObject(), 1)));
    rows.add(row("operator CPU in all (s)", runs, r -> opt(r.cpuSecondsTotal(), 2)));
    rows.add(row("peak RSS (MiB)", runs, r -> opt(r.peakRssMiB(), 0)));
    rows.add(row("heap after full GC (MiB)", runs, r -> opt(r.heapAfterGcMiB(), 1)));
    rows.add(row("heap per AppDeployment (KiB)", runs, r -> opt(r.heapKiBPerObject(), 1)));
    rows.add(
        row(
            "start to caches synced, empty cluster (s)",
            runs,
            r -> opt(r.startToReadySeconds(), 2)));
    rows.add(
        row("restart: start to caches synced (s)", runs, r -> opt(r.restartToReadySeconds(), 2)));
    rows.add(
        row(
            "restart: start to first reconcile (s)",
            runs,
            r -> opt(r.restartToFirstReconcileSeconds(), 2)));
    rows.add(
        row(
            "restart: caches synced to first reconcile (s)",
            runs,
            Reports::syncedToFirstReconcile));
    rows.add(
        row(
            "restart: start to every object reconciled (s)",
            runs,
            r -> opt(r.restartToAllReconciledSeconds(), 2)));
    rows.add(
        row(
            "restart: writes / reads",
            runs,
            r -> r.restartWrites() == null ? "–" : r.restartWrites() + " / " + r.restartReads()));
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < rows.size(); i++) {
      out.append("| ").append(String.join(" | ", rows.get(i))).append(" |\n");
      if (i == 0) {
        out.append("|---".repeat(rows.get(0).length)).append("|\n");
      }
    }
    return out.toString();
  }

  /**
   * The operator's CPU while converging by group of threads (one column per operator run, groups by
   * descending CPU), or nothing when no run measured it.
   */
  public static String threads(List<RunFigures> runs) {
    List<RunFigures> measured =
        runs.stream().filter(r -> !r.cpuSecondsByThread().isEmpty()).toList();
    if (measured.isEmpty()) {
      return "";
    }
    Map<String, Double> order = new HashMap<>();
    measured.forEach(r -> r.cpuSecondsByThread().forEach((k, v) -> order.merge(k, v, Double::sum)));
    StringBuilder out = new StringBuilder("\n| operator CPU while converging, by thread (s)");
    measured.forEach(r -> out.append(" | ").append(r.objects()).append("×").append(r.replicas()));
    out.append(" |\n").append("|---".repeat(measured.size() + 1)).append("|\n");
    order.entrySet().stream()
        .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
        .forEach(
            e -> {
              out.append("| `").append(e.getKey()).append('`');
              for (RunFigures r : measured) {
                Double v = r.cpuSecondsByThread().get(e.getKey());
                double share = v == null ? 0 : 100 * v / r.cpuSecondsConverge();
                out.append(" | ")
                    .append(
                        v == null
                            ? "–"
                            : f2(v) + " (" + String.format(Locale.ROOT, "%.0f%%", share) + ")");
              }
              out.append(" |\n");
            });
    return out.toString();
  }

  /**
   * What each additional AppDeployment costs the operator between two sizes of the same replicas:
   * the difference of CPU while converging and of heap after a full GC, divided by the difference
   * of objects, so that what does not grow with the objects (start-up, caches of other kinds)
   * cancels.
   */
  public static String marginal(List<RunFigures> runs) {
    List<RunFigures> operator =
        runs.stream()
            .filter(r -> r.mode().equals("operator") && r.cpuSecondsConverge() != null)
            .sorted(
                Comparator.comparingInt(RunFigures::replicas).thenComparingInt(RunFigures::objects))
            .toList();
    StringBuilder out = new StringBuilder();
    for (int i = 1; i < operator.size(); i++) {
      RunFigures small = operator.get(i - 1);
      RunFigures large = operator.get(i);
      if (small.replicas() != large.replicas() || small.objects() == large.objects()) {
        continue;
      }
      if (out.length() == 0) {
        out.append(
                "| per additional AppDeployment, between sizes | CPU (ms) | heap after full GC (KiB) |\n")
            .append("|---|---|---|\n");
      }
      int more = large.objects() - small.objects();
      String heap =
          small.heapAfterGcMiB() == null || large.heapAfterGcMiB() == null
              ? "–"
              : f1((large.heapAfterGcMiB() - small.heapAfterGcMiB()) * 1024 / more);
      out.append("| ")
          .append(small.objects())
          .append(" → ")
          .append(large.objects())
          .append(" (replicas ")
          .append(large.replicas())
          .append(") | ")
          .append(f1((large.cpuSecondsConverge() - small.cpuSecondsConverge()) * 1000 / more))
          .append(" | ")
          .append(heap)
          .append(" |\n");
    }
    return out.toString();
  }

  private static RunFigures floorOf(RunFigures run, List<RunFigures> runs) {
    return runs.stream()
        .filter(
            r ->
                r.mode().equals("floor")
                    && r.objects() == run.objects()
                    && r.replicas() == run.replicas())
        .findFirst()
        .orElse(null);
  }

  private static String[] row(
      String label, List<RunFigures> runs, java.util.function.Function<RunFigures, String> cell) {
    String[] row = new String[runs.size() + 1];
    row[0] = label;
    for (int i = 0; i < runs.size(); i++) {
      row[i + 1] = cell.apply(runs.get(i));
    }
    return row;
  }

  private static String f1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  private static String f2(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  private static String opt(Double v, int digits) {
    return v == null ? "–" : String.format(Locale.ROOT, "%." + digits + "f", v);
  }

  /** The median restart's time from caches synced to first reconcile, with each one's when more. */
  private static String syncedToFirstReconcile(RunFigures r) {
    if (r.restartToFirstReconcileSeconds() == null) {
      return "–";
    }
    String median = f2(r.restartToFirstReconcileSeconds() - r.restartToReadySeconds());
    List<Double> each = r.restartsSyncedToFirstReconcile();
    if (each.size() < 2) {
      return median;
    }
    return median
        + " (median of "
        + each.size()
        + ": "
        + each.stream().map(Reports::f2).collect(Collectors.joining(", "))
        + ")";
  }
}
