package dev.converge.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.benchmarks.internal.RunFigures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The harness at a tiny size, as {@code bin/test} runs it: the example operator, its Go
 * controller-runtime twin and the floor on real local control planes, figures printed and written.
 * The large sizes are {@code bin/bench}'s; timings are never asserted, only that every object
 * converged and what the API server counted.
 */
class BenchCommandSmokeIT {

  private static final int OBJECTS = 20;

  @Test
  void measuresTheExampleOperatorItsGoTwinAndTheFloorAndWritesTheResults() throws IOException {
    Path output = Path.of(System.getProperty("converge.bench.output", "target/bench-smoke"));
    Path goLog = output.resolve("logs/n20-r1/go.log");
    Files.deleteIfExists(goLog); // the harness appends: an earlier run's output is not this one's
    int exit =
        new CommandLine(new BenchCommand())
            .execute(
                "--objects",
                Integer.toString(OBJECTS),
                "--per-namespace",
                "10",
                "--fanout",
                "5",
                "--idle-seconds",
                "3",
                "--peer",
                "go",
                "--output",
                output.toString(),
                "--note",
                "smoke size, from the test suite");
    assertThat(exit).isZero();

    List<RunFigures> runs =
        JsonMapper.builder()
            .build()
            .readValue(
                output.resolve("n20-r1.json").toFile(), new TypeReference<List<RunFigures>>() {});
    assertThat(runs).extracting(RunFigures::mode).containsExactly("operator", "go", "floor");
    RunFigures operator = runs.get(0);
    RunFigures go = runs.get(1);
    RunFigures floor = runs.get(2);

    // every object reached its goal, and the curve says when
    assertThat(operator.runningOverTime()).hasSize(OBJECTS);
    assertThat(go.runningOverTime()).hasSize(OBJECTS);
    assertThat(floor.runningOverTime()).hasSize(OBJECTS);
    assertThat(operator.runningLag().count()).isEqualTo(OBJECTS);
    assertThat(go.runningLag().count()).isEqualTo(OBJECTS);
    assertThat(go.createLag().count()).isEqualTo(OBJECTS);
    assertThat(operator.namespaces()).isEqualTo(2);

    // the API server counted the floor's requests exactly: one Deployment and one Service create
    // each
    assertThat(floor.clientRequests())
        .containsEntry("create deployments", (long) OBJECTS)
        .containsEntry("create services", (long) OBJECTS);
    assertThat(floor.clientWrites()).isEqualTo(2L * OBJECTS);
    // and the operator's: at least a Deployment, a Service and a status write per AppDeployment,
    // whichever strategy writes each kind
    assertThat(writes(operator, "deployments")).isGreaterThanOrEqualTo(OBJECTS);
    assertThat(writes(operator, "services")).isGreaterThanOrEqualTo(OBJECTS);
    assertThat(writes(operator, "appdeployments/status")).isGreaterThanOrEqualTo(OBJECTS);
    assertThat(operator.clientWrites()).isGreaterThanOrEqualTo(3L * OBJECTS);
    // the Go twin wrote the same children and statuses, as the API server counted them
    assertThat(writes(go, "deployments")).isGreaterThanOrEqualTo(OBJECTS);
    assertThat(writes(go, "services")).isGreaterThanOrEqualTo(OBJECTS);
    assertThat(writes(go, "appdeployments/status")).isGreaterThanOrEqualTo(OBJECTS);
    assertThat(operator.otherWrites())
        .as("the controller manager, scheduler and kwok write too")
        .isPositive();

    // the operator's process was measured
    assertThat(operator.idleWrites()).isNotNull();
    assertThat(operator.fanoutSeconds()).isPositive();
    assertThat(operator.cpuSecondsConverge()).isPositive();
    assertThat(operator.peakRssMiB()).isPositive();
    assertThat(operator.heapAfterGcMiB()).isPositive().isLessThan(512);
    assertThat(operator.restartToFirstReconcileSeconds())
        .isGreaterThanOrEqualTo(operator.restartToReadySeconds());
    // and the Go process the same way, from /proc and its readiness probe; it has no JVM heap
    assertThat(go.cpuSecondsConverge()).isPositive();
    assertThat(go.peakRssMiB()).isPositive();
    assertThat(go.heapAfterGcMiB()).isNull();
    assertThat(go.startToReadySeconds()).isPositive();
    assertThat(go.fanoutSeconds()).isPositive();
    assertThat(go.restartToFirstReconcileSeconds())
        .isGreaterThanOrEqualTo(go.restartToReadySeconds());
    // stopped by the harness, never by a JVM tool's attach signal (SIGQUIT ends a Go program)
    assertThat(Files.readString(goLog)).doesNotContain("SIGQUIT");

    String table = Files.readString(output.resolve("n20-r1.md"));
    assertThat(table)
        .contains(
            "| time until all Running (s) |",
            "operator 20×1",
            "go 20×1",
            "Converge/Go 20×1",
            "floor 20×1");
    assertThat(ImageIO.read(output.resolve("n20-r1-running.png").toFile())).isNotNull();
    assertThat(ImageIO.read(output.resolve("heap.png").toFile())).isNotNull();
    assertThat(output.resolve("summary.md")).exists();
  }

  /**
   * The client's create, update and patch requests on {@code resource}, as the server counted them.
   */
  private static long writes(RunFigures run, String resource) {
    return run.clientRequests().entrySet().stream()
        .filter(
            e ->
                List.of("create " + resource, "update " + resource, "patch " + resource)
                    .contains(e.getKey()))
        .mapToLong(java.util.Map.Entry::getValue)
        .sum();
  }
}
