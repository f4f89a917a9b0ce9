package dev.converge.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.testing.ProcessLauncher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * In a JVM of its own that sees few processors (the common pool's parallelism is read once per
 * JVM): where {@code CompletableFuture} runs an asynchronous stage, before and after {@link
 * Operator#builder()}.
 */
class CommonPoolTest {

  /** Run in the child JVM: prints where an async stage ran without and with Operator.builder(). */
  public static void main(String[] args) throws Exception {
    boolean viaProcess = args.length > 0 && args[0].equals("process");
    if (viaProcess) {
      Operator.builder();
    }
    String thread =
        CompletableFuture.supplyAsync(() -> Thread.currentThread().getName())
            .get(10, TimeUnit.SECONDS);
    System.out.println(CommonPool.sharesThreads() + " " + thread);
  }

  @Test
  void aJvmOnTwoProcessorsStartsAThreadPerAsyncStage() throws Exception {
    assertThat(child(2, false)).matches("false Thread-\\d+");
  }

  @Test
  void operatorProcessKeepsAsyncStagesOnThePoolOnOneOrTwoProcessors() throws Exception {
    assertThat(child(2, true)).matches("true ForkJoinPool.commonPool-worker-\\d+");
    assertThat(child(1, true)).matches("true ForkJoinPool.commonPool-worker-\\d+");
  }

  @Test
  void aParallelismSetOnTheCommandLineIsLeftAsItIs() throws Exception {
    assertThat(child(2, true, "-D" + CommonPool.PARALLELISM + "=1")).matches("false Thread-\\d+");
  }

  private static String child(int processors, boolean viaProcess, String... jvmOptions)
      throws IOException {
    Path errors = Files.createTempFile("common-pool", ".err");
    try {
      ProcessLauncher.Finished finished =
          ProcessLauncher.java(CommonPoolTest.class)
              .jvmOptions("-XX:ActiveProcessorCount=" + processors)
              .jvmOptions(jvmOptions)
              .args(viaProcess ? List.of("process") : List.of())
              .errorLog(errors)
              .run(Duration.ofSeconds(60));
      return finished.output().trim();
    } finally {
      Files.deleteIfExists(errors);
    }
  }
}
