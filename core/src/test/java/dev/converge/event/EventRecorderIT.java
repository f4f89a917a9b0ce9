package dev.converge.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.converge.event.internal.AsyncEventRecorder;
import dev.converge.metrics.MicrometerControllerMetrics;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.ManualClock;
import dev.converge.testing.TcpProxy;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Events as the API server stores them. Recording returns at once and a background thread writes,
 * so every check waits for what the server holds.
 */
@ExtendWith(LocalClusterExtension.class)
class EventRecorderIT {

  private static ConfigMap subject(KubernetesClient client, String name) {
    return client
        .configMaps()
        .resource(new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
  }

  private static List<Event> eventsAbout(KubernetesClient client, ConfigMap involved) {
    return client.v1().events().inNamespace(client.getNamespace()).list().getItems().stream()
        .filter(e -> involved.getMetadata().getUid().equals(e.getInvolvedObject().getUid()))
        .toList();
  }

  /** Waits until the recorder has written (or given up on) everything it took. */
  private static void drained(EventRecorder recorder) {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> ((AsyncEventRecorder) recorder).pending() == 0);
  }

  private static double dropped(SimpleMeterRegistry registry, String reason) {
    var counter =
        registry.find(MicrometerControllerMetrics.EVENTS_DROPPED).tag("reason", reason).counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void repeatsAreAggregatedIntoOneEventWithACount(KubernetesClient client) {
    ManualClock clock = new ManualClock(Instant.parse("2026-11-29T09:00:00Z"));
    EventRecorder recorder =
        EventRecorder.builder(client)
            .component("converge-it")
            .instance("replica-0")
            .clock(clock)
            .build();
    ConfigMap involved = subject(client, "flaky");

    recorder.warning(involved, "InvalidSpec", "spec.replicas must be at least 1");
    clock.advance(Duration.ofSeconds(30));
    recorder.warning(involved, "InvalidSpec", "spec.replicas must be at least 1");
    clock.advance(Duration.ofSeconds(30));
    recorder.warning(involved, "InvalidSpec", "spec.replicas must be at least 1");
    drained(recorder);

    List<Event> events = eventsAbout(client, involved);
    assertThat(events)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getCount()).isEqualTo(3);
              assertThat(e.getType()).isEqualTo("Warning");
              assertThat(e.getReason()).isEqualTo("InvalidSpec");
              assertThat(e.getMessage()).isEqualTo("spec.replicas must be at least 1");
              assertThat(e.getFirstTimestamp()).isEqualTo("2026-11-29T09:00:00Z");
              assertThat(e.getLastTimestamp()).isEqualTo("2026-11-29T09:01:00Z");
              assertThat(e.getInvolvedObject().getKind()).isEqualTo("ConfigMap");
              assertThat(e.getInvolvedObject().getApiVersion()).isEqualTo("v1");
              assertThat(e.getInvolvedObject().getName()).isEqualTo("flaky");
              assertThat(e.getInvolvedObject().getNamespace()).isEqualTo(client.getNamespace());
              assertThat(e.getInvolvedObject().getResourceVersion())
                  .isEqualTo(involved.getMetadata().getResourceVersion());
              assertThat(e.getSource().getComponent()).isEqualTo("converge-it");
              assertThat(e.getReportingComponent()).isEqualTo("converge-it");
              assertThat(e.getReportingInstance()).isEqualTo("replica-0");
            });
  }

  @Test
  void differentReasonsOrMessagesAreSeparateEvents(KubernetesClient client) {
    EventRecorder recorder = EventRecorder.builder(client).component("converge-it").build();
    ConfigMap involved = subject(client, "busy");

    recorder.normal(involved, "Created", "created Deployment busy");
    recorder.normal(involved, "Created", "created Service busy");
    recorder.warning(involved, "Created", "created Service busy");
    recorder.normal(involved, "Created", "created Deployment busy");
    drained(recorder);

    assertThat(eventsAbout(client, involved))
        .extracting(Event::getType, Event::getMessage, Event::getCount)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("Normal", "created Deployment busy", 2),
            org.assertj.core.groups.Tuple.tuple("Normal", "created Service busy", 1),
            org.assertj.core.groups.Tuple.tuple("Warning", "created Service busy", 1));
  }

  @Test
  void aggregationMemoryIsBounded(KubernetesClient client) {
    EventRecorder recorder =
        EventRecorder.builder(client).component("converge-it").cacheSize(2).build();
    ConfigMap involved = subject(client, "many");

    for (String message : List.of("one", "two", "three", "three", "one")) {
      recorder.normal(involved, "Step", message);
      drained(recorder); // one at a time, so no repeat is folded while it waits in the queue
    }

    // "three" was still remembered and aggregated; "one" had been evicted and started afresh.
    assertThat(eventsAbout(client, involved))
        .extracting(Event::getMessage, Event::getCount)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("one", 1),
            org.assertj.core.groups.Tuple.tuple("two", 1),
            org.assertj.core.groups.Tuple.tuple("three", 2),
            org.assertj.core.groups.Tuple.tuple("one", 1));
  }

  @Test
  void anExpiredEventIsStartedAgain(KubernetesClient client) {
    EventRecorder recorder = EventRecorder.builder(client).component("converge-it").build();
    ConfigMap involved = subject(client, "expiring");
    recorder.normal(involved, "Synced", "in sync");
    drained(recorder);
    eventsAbout(client, involved).forEach(e -> client.resource(e).delete());

    recorder.normal(involved, "Synced", "in sync");
    drained(recorder);

    assertThat(eventsAbout(client, involved))
        .singleElement()
        .satisfies(e -> assertThat(e.getCount()).isEqualTo(1));
  }

  @Test
  void aFailedWriteIsLoggedNotThrown(KubernetesClient client, LocalCluster cluster) {
    ConfigMap involved = subject(client, "secret-keeper");
    try (KubernetesClient powerless = cluster.clientAs("no-rights-at-all")) {
      EventRecorder recorder = EventRecorder.builder(powerless).component("converge-it").build();

      assertThatCode(() -> recorder.warning(involved, "Denied", "this cannot be written"))
          .doesNotThrowAnyException();
      drained(recorder);
    }
    assertThat(eventsAbout(client, involved)).isEmpty();
  }

  @Test
  void clusterScopedObjectsGetTheirEventsInTheDefaultNamespace(KubernetesClient client) {
    var namespace = client.namespaces().withName(client.getNamespace()).get();
    EventRecorder recorder = EventRecorder.builder(client).component("converge-it").build();

    recorder.normal(namespace, "Observed", "namespace seen by the IT");
    drained(recorder);

    List<Event> events =
        client.v1().events().inNamespace("default").list().getItems().stream()
            .filter(e -> namespace.getMetadata().getUid().equals(e.getInvolvedObject().getUid()))
            .toList();
    try {
      assertThat(events)
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.getInvolvedObject().getKind()).isEqualTo("Namespace");
                assertThat(e.getInvolvedObject().getNamespace()).isNull();
              });
    } finally {
      events.forEach(e -> client.resource(e).delete());
    }
  }

  @Test
  void concurrentRepeatsStillMakeOneEventWithTheFullCount(KubernetesClient client)
      throws Exception {
    EventRecorder recorder = EventRecorder.builder(client).component("converge-it").build();
    ConfigMap involved = subject(client, "shared");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        done.add(pool.submit(() -> recorder.normal(involved, "Referenced", "used by an app")));
      }
      for (Future<?> f : done) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    drained(recorder);

    assertThat(eventsAbout(client, involved))
        .singleElement()
        .satisfies(e -> assertThat(e.getCount()).isEqualTo(20));
  }

  @Test
  void longObjectNamesStillGetAValidEventName(KubernetesClient client) {
    EventRecorder recorder = EventRecorder.builder(client).component("converge-it").build();
    ConfigMap involved = subject(client, "n".repeat(253));

    recorder.normal(involved, "Observed", "a very long name");
    drained(recorder);

    assertThat(eventsAbout(client, involved))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getMetadata().getName()).hasSizeLessThanOrEqualTo(253);
              assertThat(e.getInvolvedObject().getName()).isEqualTo("n".repeat(253));
            });
  }

  @Test
  void eachObjectMayCauseOnlyItsBurstOfWritesUntilItEarnsMore(KubernetesClient client) {
    ManualClock clock = new ManualClock(Instant.parse("2026-11-29T09:00:00Z"));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    EventRecorder recorder =
        EventRecorder.builder(client)
            .component("converge-it")
            .clock(clock)
            .rateLimit(5, Duration.ofMinutes(5))
            .metrics(new MicrometerControllerMetrics(registry))
            .build();
    ConfigMap noisy = subject(client, "noisy");
    ConfigMap quiet = subject(client, "quiet");

    for (int i = 0; i < 20; i++) {
      recorder.warning(noisy, "Failed", "attempt " + i + " failed");
      drained(recorder); // each its own write, so each takes a token
    }
    recorder.normal(quiet, "Synced", "in sync");
    drained(recorder);

    assertThat(eventsAbout(client, noisy))
        .extracting(Event::getMessage)
        .containsExactlyInAnyOrder(
            "attempt 0 failed",
            "attempt 1 failed",
            "attempt 2 failed",
            "attempt 3 failed",
            "attempt 4 failed");
    assertThat(eventsAbout(client, quiet)).hasSize(1);
    assertThat(dropped(registry, AsyncEventRecorder.RATE_LIMITED)).isEqualTo(15.0);

    clock.advance(Duration.ofMinutes(5));
    recorder.warning(noisy, "Failed", "attempt 20 failed");
    recorder.warning(noisy, "Failed", "attempt 21 failed");
    drained(recorder);

    assertThat(eventsAbout(client, noisy))
        .extracting(Event::getMessage)
        .contains("attempt 20 failed")
        .doesNotContain("attempt 21 failed")
        .hasSize(6);
    assertThat(dropped(registry, AsyncEventRecorder.RATE_LIMITED)).isEqualTo(16.0);
  }

  @Test
  void recordingNeverWaitsForAStalledServerAndAFullQueueDropsWithAMetric(
      KubernetesClient client, LocalCluster cluster) {
    assumeTrue(cluster.faults().isPresent(), "needs the local control plane");
    ConfigMap involved = subject(client, "stalled");
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (TcpProxy proxy = cluster.faults().orElseThrow().proxyToApiServer();
        KubernetesClient viaProxy =
            new KubernetesClientBuilder()
                .withConfig(
                    new io.fabric8.kubernetes.client.ConfigBuilder(cluster.configVia(proxy))
                        .withNamespace(client.getNamespace())
                        .build())
                .build()) {
      EventRecorder recorder =
          EventRecorder.builder(viaProxy)
              .component("converge-it")
              .queueCapacity(2)
              .metrics(new MicrometerControllerMetrics(registry))
              .build();
      proxy.stall();
      // With the server answering nothing, 10 different Events are recorded: the writer holds at
      // most one in flight and two wait, so at least 7 are dropped, and none of the calls waits.
      assertTimeoutPreemptively(
          Duration.ofSeconds(20),
          () -> {
            for (int i = 0; i < 10; i++) {
              recorder.normal(involved, "Step", "step " + i);
            }
          });
      double full = dropped(registry, AsyncEventRecorder.QUEUE_FULL);
      assertThat(full).isGreaterThanOrEqualTo(7.0);

      proxy.heal();
      drained(recorder);
      recorder.close();
      assertThat(eventsAbout(client, involved))
          .hasSize(10 - (int) full)
          .allSatisfy(e -> assertThat(e.getCount()).isEqualTo(1));
    }
  }
}
