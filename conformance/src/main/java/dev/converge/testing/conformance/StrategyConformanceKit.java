package dev.converge.testing.conformance;

import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.conformance.fuzz.internal.Corpus;
import dev.converge.testing.conformance.internal.CaseRunner;
import dev.converge.testing.conformance.internal.ExpectationFailure;
import dev.converge.testing.conformance.internal.KitWidgetCrd;
import dev.converge.testing.conformance.internal.ScenarioRunner;
import dev.converge.testing.conformance.internal.Subject;
import dev.converge.testing.conformance.internal.Subjects;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.opentest4j.TestAbortedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The strategy conformance suite. Extend it in an integration test, name the strategy (and the
 * limits of its method it declares), and against the real local cluster every {@link Scenario} runs
 * on Deployment, Service (ClusterIP and NodePort), ConfigMap, Secret, StatefulSet and a custom
 * resource, and every {@link ConformanceCase} on the realistic objects it concerns:
 *
 * <pre>{@code
 * class MyStrategyConformanceIT extends StrategyConformanceKit {
 *   protected ConformanceTarget target() { return ConformanceTarget.of(new MyStrategy()); }
 * }
 * }</pre>
 *
 * Live objects are judged by {@link Judge}, never by the strategies' own comparison code. Failures
 * fail the test; a check whose failed expectations are all declared limits shows as skipped with
 * the reasons. Every result is also written to a {@link ConformanceReport} for {@link
 * ConformanceTable}.
 */
@ExtendWith(LocalClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class StrategyConformanceKit {

  /** For the subclass that names the strategy under test. */
  protected StrategyConformanceKit() {}

  private static final Logger log = LoggerFactory.getLogger(StrategyConformanceKit.class);

  /**
   * System property: a comma-separated list of case names ({@link ConformanceCase#caseName()});
   * when set, only those cases run and no scenario does — to check one change quickly.
   */
  public static final String ONLY_CASES = "converge.conformance.cases";

  private static List<String> onlyCases() {
    String only = System.getProperty(ONLY_CASES, "").trim();
    return only.isEmpty() ? List.of() : List.of(only.split("\\s*,\\s*"));
  }

  private KubernetesClient strategyClient;
  private KubernetesClient other;
  private WriteCounter counter;
  private KitWidgetCrd widgets;
  private String namespace;
  private ConformanceReport report;

  /**
   * The strategy under test, with the limits of its write method it declares.
   *
   * @return the target; called more than once, so return an equal one each time
   */
  protected abstract ConformanceTarget target();

  /**
   * Other strategies to switch the same object to and from (scenario 10). Empty means the switch
   * scenario is reported as not run.
   *
   * @return the peers; empty by default
   */
  protected List<ConformanceTarget> peers() {
    return List.of();
  }

  /**
   * Why the switch scenario does not run when {@link #peers()} is empty; override to say where the
   * switches involving this strategy are checked instead.
   *
   * @return the reason, for the report
   */
  protected String noPeersReason() {
    return "no peer strategies were given to this run";
  }

  @BeforeAll
  void startKit(LocalCluster cluster) {
    counter = new WriteCounter();
    strategyClient =
        cluster
            .clientBuilder()
            .withHttpClientBuilderConsumer(
                b -> b.addOrReplaceInterceptor("conformance-write-counter", counter))
            .build();
    other = cluster.newClient();
    namespace =
        ("conformance-" + target().name() + "-" + UUID.randomUUID().toString().substring(0, 6))
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
    report = new ConformanceReport(target().name());
  }

  @AfterAll
  void stopKit() {
    try {
      if (other != null && namespace != null) {
        other.namespaces().withName(namespace).delete();
      }
      if (widgets != null) {
        widgets.close();
      }
    } finally {
      if (report != null) {
        log.info(
            "conformance results of {} written to {}",
            target().name(),
            report.file().toAbsolutePath());
      }
      if (strategyClient != null) {
        strategyClient.close();
      }
      if (other != null) {
        other.close();
      }
    }
  }

  @TestFactory
  Stream<DynamicContainer> conformance() {
    if (!onlyCases().isEmpty()) {
      return Stream.empty();
    }
    ConformanceTarget target = target();
    ScenarioRunner runner =
        new ScenarioRunner(
            target, peers(), noPeersReason(), strategyClient, counter, other, namespace);
    return Subjects.all(widgets).stream()
        .map(
            subject ->
                DynamicContainer.dynamicContainer(
                    subject.label(),
                    Arrays.stream(Scenario.values())
                        .map(
                            scenario ->
                                DynamicTest.dynamicTest(
                                    scenario.number() + ". " + scenario.shortName(),
                                    () -> runOne(runner, target, scenario, subject)))));
  }

  @TestFactory
  Stream<DynamicContainer> cases() {
    ConformanceTarget target = target();
    CaseRunner runner =
        new CaseRunner(
            target, strategyClient, counter, other, namespace, new Corpus(widgets.apiVersion()));
    List<CaseRunner.CaseRun> runs = runner.runs();
    List<String> only = onlyCases();
    return Arrays.stream(ConformanceCase.values())
        .filter(check -> only.isEmpty() || only.contains(check.caseName()))
        .map(
            check ->
                DynamicContainer.dynamicContainer(
                    check.caseName(),
                    IntStream.range(0, runs.size())
                        .filter(i -> runs.get(i).check() == check)
                        .mapToObj(
                            i ->
                                DynamicTest.dynamicTest(
                                    runs.get(i).subject(),
                                    () -> runCase(runner, target, runs.get(i), i)))));
  }

  private void runOne(
      ScenarioRunner runner, ConformanceTarget target, Scenario scenario, Subject subject) {
    Optional<String> notRun = runner.notRunReason(scenario, subject);
    if (notRun.isPresent()) {
      report.add(
          new ScenarioResult(
              target.name(), scenario, subject.label(), Verdict.NOT_RUN, notRun.get()));
      throw new TestAbortedException(notRun.get());
    }
    Judged judged = judge(target, scenario.shortName(), () -> runner.run(scenario, subject));
    report.add(
        new ScenarioResult(
            target.name(), scenario, subject.label(), judged.verdict(), judged.detail()));
    judged.rethrow();
  }

  private void runCase(
      CaseRunner runner, ConformanceTarget target, CaseRunner.CaseRun run, int index) {
    Judged judged = judge(target, run.check().caseName(), () -> runner.run(run, index));
    report.add(
        new CaseResult(
            target.name(), run.check(), run.subject(), judged.verdict(), judged.detail()));
    judged.rethrow();
  }

  /** What one check found: a verdict, its detail and what to throw to JUnit. */
  record Judged(Verdict verdict, String detail, Throwable thrown) {
    void rethrow() {
      if (thrown instanceof RuntimeException e) {
        throw e;
      }
      if (thrown instanceof Error e) {
        throw e;
      }
    }
  }

  /**
   * Runs a check. When it fails, its verdict is NOT_SUPPORTED only if every expectation that failed
   * is declared as a limit of the strategy's method for this check; any other failure is FAIL.
   */
  static Judged judge(ConformanceTarget target, String check, Supplier<String> body) {
    try {
      return new Judged(Verdict.PASS, body.get(), null);
    } catch (ExpectationFailure e) {
      List<String> reasons = new ArrayList<>();
      for (String expectation : e.expectations()) {
        Optional<DeclaredLimit> limit = target.limit(check, expectation);
        if (limit.isEmpty()) {
          return new Judged(Verdict.FAIL, e.getMessage(), e);
        }
        reasons.add(expectation + ": " + limit.get().reason());
      }
      String detail = String.join("; ", reasons) + " (observed: " + e.getMessage() + ")";
      return new Judged(
          Verdict.NOT_SUPPORTED,
          detail,
          new TestAbortedException("declared limit of " + target.name() + ": " + detail));
    } catch (AssertionError | RuntimeException e) {
      return new Judged(Verdict.FAIL, e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
  }
}
