package dev.converge.testing.conformance;

import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.conformance.internal.ScenarioRunner;
import dev.converge.testing.conformance.internal.Subject;
import dev.converge.testing.conformance.internal.Subjects;
import dev.converge.testing.conformance.internal.WidgetCrd;
import dev.converge.testing.conformance.internal.WriteCounter;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
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
 * limits it declares), and every {@link Scenario} runs on Deployment, Service (ClusterIP and
 * NodePort), ConfigMap, Secret, StatefulSet and a custom resource against the real local cluster:
 *
 * <pre>{@code
 * class MyStrategyConformanceIT extends StrategyConformanceKit {
 *   protected ConformanceTarget target() { return ConformanceTarget.of(new MyStrategy()); }
 * }
 * }</pre>
 *
 * Failures fail the test; declared limits that do not hold show as skipped with their reason. Every
 * result is also written to a {@link ConformanceReport} for {@link ConformanceTable}.
 */
@ExtendWith(LocalClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class StrategyConformanceKit {

  private static final Logger log = LoggerFactory.getLogger(StrategyConformanceKit.class);

  private KubernetesClient strategyClient;
  private KubernetesClient other;
  private WriteCounter counter;
  private WidgetCrd widgets;
  private String namespace;
  private ConformanceReport report;

  /** The strategy under test. */
  protected abstract ConformanceTarget target();

  /**
   * Other strategies to switch the same object to and from (scenario 10). Empty means the switch
   * scenario is reported as not run.
   */
  protected List<ConformanceTarget> peers() {
    return List.of();
  }

  /**
   * Why the switch scenario does not run when {@link #peers()} is empty; override to say where the
   * switches involving this strategy are checked instead.
   */
  protected String noPeersReason() {
    return "no peer strategies were given to this run";
  }

  @BeforeAll
  void startKit(LocalCluster cluster) {
    counter = new WriteCounter();
    strategyClient = cluster.clientBuilder()
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("conformance-write-counter", counter))
        .build();
    other = cluster.newClient();
    namespace = ("conformance-" + target().name() + "-" + UUID.randomUUID().toString().substring(0, 6))
        .toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
    other.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace)
        .addToLabels("converge.dev/test", "true").endMetadata().build()).create();
    widgets = WidgetCrd.create(other);
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
        log.info("conformance results of {} written to {}", target().name(), report.file().toAbsolutePath());
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
    ConformanceTarget target = target();
    ScenarioRunner runner = new ScenarioRunner(target, peers(), noPeersReason(), strategyClient, counter, other, namespace);
    return Subjects.all(widgets).stream().map(subject -> DynamicContainer.dynamicContainer(subject.label(),
        Arrays.stream(Scenario.values()).map(scenario -> DynamicTest.dynamicTest(
            scenario.number() + ". " + scenario.shortName(), () -> runOne(runner, target, scenario, subject)))));
  }

  private void runOne(ScenarioRunner runner, ConformanceTarget target, Scenario scenario, Subject subject) {
    String notRun = runner.notRunReason(scenario, subject);
    if (notRun != null) {
      record(target, scenario, subject, Verdict.NOT_RUN, notRun);
      throw new TestAbortedException(notRun);
    }
    try {
      String note = runner.run(scenario, subject);
      record(target, scenario, subject, Verdict.PASS, note);
    } catch (AssertionError | RuntimeException e) {
      String observed = e.getClass().getSimpleName() + ": " + e.getMessage();
      String limit = target.limits().get(scenario);
      if (limit != null) {
        record(target, scenario, subject, Verdict.NOT_SUPPORTED, limit + " (observed: " + observed + ")");
        throw new TestAbortedException("declared limit of " + target.name() + ": " + limit + "; observed: " + observed);
      }
      record(target, scenario, subject, Verdict.FAIL, observed);
      throw e;
    }
  }

  private void record(ConformanceTarget target, Scenario scenario, Subject subject, Verdict verdict, String detail) {
    report.add(new ScenarioResult(target.name(), scenario, subject.label(), verdict, detail));
  }
}
