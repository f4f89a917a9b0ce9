package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.metrics.MicrometerControllerMetrics;
import dev.converge.operator.Operator;
import dev.converge.predicate.EventPredicate;
import dev.converge.queue.ExponentialBackoff;
import dev.converge.reconcile.Result;
import dev.converge.status.ConditionStatus;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every {@code Result} case on a real API server: done, requeue after a delay, a thrown exception
 * (and an {@code Error}) retried with backoff, a permanent failure that is not retried but
 * reconciled again on the next event, and a primary deleted before its reconcile.
 */
@ExtendWith(LocalClusterExtension.class)
class ReconcileResultsIT {

  @Group("results.it.converge.dev")
  @Version("v1")
  public static class ResultWidget extends CustomResource<WidgetSpec, WidgetStatus>
      implements Namespaced {}

  private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private Operator operator;

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    TestCrds.install(cluster, ResultWidget.class);
  }

  @AfterEach
  void stopOperator() {
    if (operator != null) {
      operator.stop();
    }
  }

  private void startOperator(KubernetesClient client, TestNamespace ns) {
    startOperator(client, ns, EventPredicate.generationChanged());
  }

  private void startOperator(
      KubernetesClient client, TestNamespace ns, EventPredicate<ResultWidget> primaryFilter) {
    operator =
        Operator.builder(client)
            .name("results-it")
            .namespace(ns.name())
            .meterRegistry(registry)
            .controller(
                ControllerBuilder.forPrimary(ResultWidget.class)
                    .withPredicate(primaryFilter)
                    .maxConcurrentReconciles(2)
                    .backoff(new ExponentialBackoff(Duration.ofMillis(50), Duration.ofSeconds(2)))
                    .build(
                        (widget, context) -> {
                          String name = widget.getMetadata().getName();
                          int attempt =
                              attempts
                                  .computeIfAbsent(name, k -> new AtomicInteger())
                                  .incrementAndGet();
                          switch (widget.getSpec().getMode()) {
                            case "requeue" -> {
                              return Result.requeueAfter(Duration.ofMillis(300));
                            }
                            case "flaky" -> {
                              if (attempt < 4) {
                                throw new IllegalStateException(
                                    "simulated conflict, attempt " + attempt);
                              }
                            }
                            case "panic" -> {
                              if (attempt == 1) {
                                throw new AssertionError("simulated bug in user code");
                              }
                            }
                            case "invalid" -> {
                              Widgets.setReady(
                                  context,
                                  widget,
                                  ConditionStatus.FALSE,
                                  "InvalidSpec",
                                  "spec.mode 'invalid' is not supported; use done");
                              return Result.permanentFailure(
                                  "InvalidSpec", "spec.mode 'invalid' is not supported; use done");
                            }
                            default -> {
                              // done at once
                            }
                          }
                          Widgets.setReady(
                              context, widget, ConditionStatus.TRUE, "Reconciled", "all good");
                          return Result.done();
                        }))
            .build();
    operator.start();
    assertThat(operator.awaitCachesSynced(Duration.ofSeconds(30))).isTrue();
  }

  private static ResultWidget widget(String name, String mode) {
    ResultWidget w = new ResultWidget();
    w.getMetadata().setName(name);
    w.setSpec(new WidgetSpec());
    w.getSpec().setMode(mode);
    return w;
  }

  private long count(String result) {
    Timer timer =
        registry.find(MicrometerControllerMetrics.RECONCILE).tag("result", result).timer();
    return timer == null ? 0 : timer.count();
  }

  private int attemptsOf(String name) {
    return attempts.getOrDefault(name, new AtomicInteger()).get();
  }

  @Test
  void doneReachesReadyWithObservedGenerationAndStopsReconciling(
      KubernetesClient client, TestNamespace ns) {
    startOperator(client, ns);
    client.resource(widget("plain", "done")).create();

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> Widgets.isReady(client.resources(ResultWidget.class).withName("plain").get()));
    ResultWidget live = client.resources(ResultWidget.class).withName("plain").get();
    assertThat(live.getStatus().getObservedGeneration())
        .isEqualTo(live.getMetadata().getGeneration());
    assertThat(Widgets.ready(live).orElseThrow().getObservedGeneration())
        .isEqualTo(live.getMetadata().getGeneration());

    // Our own status write does not come back as a reconcile (generation predicate), so one is all.
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(5))
        .until(() -> attemptsOf("plain") == 1);
    assertThat(count("success")).isEqualTo(1);
  }

  @Test
  void requeueAfterReconcilesAgainWithoutAnyEvent(KubernetesClient client, TestNamespace ns) {
    startOperator(client, ns);
    client.resource(widget("poller", "requeue")).create();

    await().atMost(Duration.ofSeconds(30)).until(() -> attemptsOf("poller") >= 4);
    assertThat(count("requeue-after")).isGreaterThanOrEqualTo(4);
    assertThat(count("error")).isZero();
  }

  @Test
  void thrownExceptionsAreRetriedWithBackoffUntilTheyStop(
      KubernetesClient client, TestNamespace ns) {
    startOperator(client, ns);
    client.resource(widget("flaky", "flaky")).create();

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> Widgets.isReady(client.resources(ResultWidget.class).withName("flaky").get()));
    assertThat(attemptsOf("flaky")).isEqualTo(4);
    assertThat(count("error")).isEqualTo(3);
    assertThat(count("success")).isEqualTo(1);
    assertThat(registry.find(MicrometerControllerMetrics.QUEUE_RETRIES).counter().count())
        .isEqualTo(3);
  }

  @Test
  void anErrorFromUserCodeFailsOnlyThatReconcile(KubernetesClient client, TestNamespace ns) {
    startOperator(client, ns);
    client.resource(widget("panics-once", "panic")).create();
    client.resource(widget("bystander", "done")).create();

    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                Widgets.isReady(client.resources(ResultWidget.class).withName("panics-once").get())
                    && Widgets.isReady(
                        client.resources(ResultWidget.class).withName("bystander").get()));
    assertThat(attemptsOf("panics-once")).isEqualTo(2);
    assertThat(count("error")).isEqualTo(1);
  }

  @Test
  void permanentFailureIsNotRetriedButTheNextEventReconcilesAgain(
      KubernetesClient client, TestNamespace ns) {
    // Spec and label changes reach the queue; our own status write does not.
    startOperator(
        client,
        ns,
        EventPredicate.anyOf(EventPredicate.generationChanged(), EventPredicate.labelsChanged()));
    client.resource(widget("broken", "invalid")).create();

    await().atMost(Duration.ofSeconds(30)).until(() -> warnings(client, ns, "broken").size() == 1);
    Event warning = warnings(client, ns, "broken").get(0);
    assertThat(warning.getReason()).isEqualTo("InvalidSpec");
    assertThat(warning.getMessage()).contains("spec.mode 'invalid'");
    ResultWidget live = client.resources(ResultWidget.class).withName("broken").get();
    assertThat(Widgets.ready(live).orElseThrow().getReason()).isEqualTo("InvalidSpec");

    // No retry, however long we wait (the backoff would have retried within 50 ms).
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(5))
        .until(() -> attemptsOf("broken") == 1);
    assertThat(count("permanent")).isEqualTo(1);

    // A later event of the object (here a label change; a change of something it watches works
    // the same) reconciles it again: the failure stopped only the retries.
    client
        .resources(ResultWidget.class)
        .withName("broken")
        .edit(
            w -> {
              w.getMetadata().setLabels(Map.of("touched", "yes"));
              return w;
            });
    await().atMost(Duration.ofSeconds(30)).until(() -> attemptsOf("broken") == 2);
    assertThat(count("permanent")).isEqualTo(2);

    // The user fixes the spec: generation 2 is reconciled.
    client
        .resources(ResultWidget.class)
        .withName("broken")
        .edit(
            w -> {
              w.getSpec().setMode("done");
              return w;
            });
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> Widgets.isReady(client.resources(ResultWidget.class).withName("broken").get()));
    ResultWidget fixed = client.resources(ResultWidget.class).withName("broken").get();
    assertThat(fixed.getStatus().getObservedGeneration()).isEqualTo(2L);
    assertThat(count("permanent")).isEqualTo(2);
  }

  @Test
  void aPrimaryDeletedBeforeItsReconcileIsNotAnError(KubernetesClient client, TestNamespace ns) {
    startOperator(client, ns);
    client.resource(widget("short-lived", "done")).create();
    await().atMost(Duration.ofSeconds(30)).until(() -> attemptsOf("short-lived") == 1);

    client.resources(ResultWidget.class).withName("short-lived").delete();

    // The delete event enqueues the key; the worker finds no primary and is done.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> operator.caches().of(ResultWidget.class).get(ns.name(), "short-lived").isEmpty());
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Duration.ofSeconds(3))
        .until(() -> attemptsOf("short-lived") == 1 && count("error") == 0);
  }

  private static List<Event> warnings(KubernetesClient client, TestNamespace ns, String name) {
    return client.v1().events().inNamespace(ns.name()).list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName()))
        .filter(e -> "Warning".equals(e.getType()))
        .toList();
  }
}
