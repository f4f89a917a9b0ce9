package dev.converge.testing.conformance.fuzz;

import dev.converge.strategy.ResourceStrategy;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.conformance.WriteCounter;
import dev.converge.testing.conformance.fuzz.internal.Corpus;
import dev.converge.testing.conformance.fuzz.internal.FuzzRun;
import dev.converge.testing.conformance.fuzz.internal.SequenceRunner;
import dev.converge.testing.conformance.internal.KitWidgetCrd;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The differential fuzzer as a JUnit 5 integration test, with the API server as the oracle. Extend
 * it in a class named {@code *IT} and return the strategy:
 *
 * <pre>{@code
 * class MyStrategyFuzzIT extends StrategyFuzzKit {
 *   protected ResourceStrategy strategy() { return new MyStrategy(); }
 * }
 * }</pre>
 *
 * Each sequence creates a realistic object of one corpus kind, lets another client change it, and
 * applies changed desired objects; every apply is judged against a server-side dry-run create of
 * the same desired object. The figures are printed and written to {@code
 * target/conformance/fuzz-<strategy>.txt}; the test fails when any sequence failed, printing each
 * failure's seed, step and shrunk case. Size: {@link #defaultSequences()} unless the system
 * property {@value FuzzSettings#SEQUENCES} says otherwise.
 */
@ExtendWith(LocalClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class StrategyFuzzKit {

  /** For the subclass that names the strategy under test. */
  protected StrategyFuzzKit() {}

  private static final Logger log = LoggerFactory.getLogger(StrategyFuzzKit.class);

  private KubernetesClient strategyClient;
  private KubernetesClient other;
  private WriteCounter counter;
  private KitWidgetCrd widgets;
  private String namespace;

  /**
   * The strategy under test.
   *
   * @return the strategy
   */
  protected abstract ResourceStrategy strategy();

  /**
   * Sequences per run inside the normal build; keep it small (a sequence costs about half a
   * second).
   *
   * @return the sequences per run; 32 by default
   */
  protected int defaultSequences() {
    return 32;
  }

  /**
   * The field manager the strategy writes as.
   *
   * @return the field manager; {@code converge-fuzz} by default
   */
  protected String fieldManager() {
    return "converge-fuzz";
  }

  @BeforeAll
  void startFuzzer(LocalCluster cluster) {
    counter = new WriteCounter();
    strategyClient =
        cluster
            .clientBuilder()
            .withHttpClientBuilderConsumer(
                b -> b.addOrReplaceInterceptor("fuzz-write-counter", counter))
            .build();
    other = cluster.newClient();
    namespace =
        ("fuzz-" + strategy().name() + "-" + UUID.randomUUID().toString().substring(0, 6))
            .toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9-]", "-");
    other
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(namespace)
                .addToLabels("converge.dev/test", "true")
                .endMetadata()
                .build())
        .create();
    widgets = KitWidgetCrd.create(other);
  }

  @AfterAll
  void stopFuzzer() {
    try {
      if (other != null && namespace != null) {
        other.namespaces().withName(namespace).delete();
      }
      if (widgets != null) {
        widgets.close();
      }
    } finally {
      if (strategyClient != null) {
        strategyClient.close();
      }
      if (other != null) {
        other.close();
      }
    }
  }

  @Test
  void differentialFuzz() {
    ResourceStrategy strategy = strategy();
    FuzzSettings settings = FuzzSettings.fromSystemProperties(defaultSequences());
    Corpus corpus = new Corpus(widgets.apiVersion());
    SequenceRunner runner =
        new SequenceRunner(
            strategy, strategyClient, fieldManager(), counter, other, namespace, corpus);
    long started = System.nanoTime();
    FuzzReport report = new FuzzRun(strategy.name(), runner, corpus.kinds(), settings).run();
    long seconds = (System.nanoTime() - started) / 1_000_000_000L;
    String text =
        "differential fuzz, base seed "
            + settings.seed()
            + ", "
            + settings.changes()
            + " changes per sequence, "
            + corpus.kinds().size()
            + " kinds, "
            + seconds
            + " s\n"
            + report.summary()
            + "\n"
            + report.examples().stream()
                .map(FuzzFailure::describe)
                .collect(Collectors.joining("\n"));
    System.out.println(text);
    write(strategy.name(), text);
    if (!report.clean()) {
      throw new AssertionError(
          "the differential fuzzer found failures of " + strategy.name() + ":\n" + text);
    }
  }

  private static void write(String strategy, String text) {
    Path file =
        Path.of(System.getProperty("converge.conformance.dir", "target/conformance"))
            .resolve("fuzz-" + strategy.replaceAll("[^A-Za-z0-9._-]", "_") + ".txt");
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
      log.info("fuzz figures of {} written to {}", strategy, file.toAbsolutePath());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write fuzz figures to " + file, e);
    }
  }
}
