package dev.converge.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.converge.event.internal.AggregatingEventRecorder;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import dev.converge.time.ManualClock;
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

/** Events as the API server stores them. */
@ExtendWith(LocalClusterExtension.class)
class EventRecorderIT {

  private static ConfigMap subject(KubernetesClient client, String name) {
    return client.configMaps().resource(new ConfigMapBuilder()
        .withNewMetadata().withName(name).endMetadata().build()).create();
  }

  private static List<Event> eventsAbout(KubernetesClient client, ConfigMap involved) {
    return client.v1().events().inNamespace(client.getNamespace()).list().getItems().stream()
        .filter(e -> involved.getMetadata().getUid().equals(e.getInvolvedObject().getUid()))
        .toList();
  }

  @Test
  void repeatsAreAggregatedIntoOneEventWithACount(KubernetesClient client) {
    ManualClock clock = new ManualClock(Instant.parse("2026-11-29T09:00:00Z"));
    EventRecorder recorder = EventRecorder.builder(client).component("converge-it")
        .instance("replica-0").clock(clock).build();
    ConfigMap involved = subject(client, "flaky");

    recorder.warning(involved, "InvalidSpec", "spec.replicas must be at least 1");
    clock.advance(Duration.ofSeconds(30));
    recorder.warning(involved, "InvalidSpec", "spec.replicas must be at least 1");
    clock.advance(Duration.ofSeconds(30));
    recorder.warning(involved, "InvalidSpec", "spec.replicas must be at least 1");

    List<Event> events = eventsAbout(client, involved);
    assertThat(events).singleElement().satisfies(e -> {
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

    assertThat(eventsAbout(client, involved))
        .extracting(Event::getType, Event::getMessage, Event::getCount)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("Normal", "created Deployment busy", 2),
            org.assertj.core.groups.Tuple.tuple("Normal", "created Service busy", 1),
            org.assertj.core.groups.Tuple.tuple("Warning", "created Service busy", 1));
  }

  @Test
  void aggregationMemoryIsBounded(KubernetesClient client) {
    EventRecorder recorder = EventRecorder.builder(client).component("converge-it").cacheSize(2)
        .build();
    ConfigMap involved = subject(client, "many");

    recorder.normal(involved, "Step", "one");
    recorder.normal(involved, "Step", "two");
    recorder.normal(involved, "Step", "three");
    recorder.normal(involved, "Step", "three");
    recorder.normal(involved, "Step", "one");

    assertThat(((AggregatingEventRecorder) recorder).cachedKeys()).isEqualTo(2);
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
    eventsAbout(client, involved).forEach(e -> client.resource(e).delete());

    recorder.normal(involved, "Synced", "in sync");

    assertThat(eventsAbout(client, involved)).singleElement()
        .satisfies(e -> assertThat(e.getCount()).isEqualTo(1));
  }

  @Test
  void aFailedWriteIsLoggedNotThrown(KubernetesClient client, LocalCluster cluster) {
    ConfigMap involved = subject(client, "secret-keeper");
    try (KubernetesClient powerless = cluster.clientAs("no-rights-at-all")) {
      EventRecorder recorder = EventRecorder.builder(powerless).component("converge-it").build();

      assertThatCode(() -> recorder.warning(involved, "Denied", "this cannot be written"))
          .doesNotThrowAnyException();
    }
    assertThat(eventsAbout(client, involved)).isEmpty();
  }

  @Test
  void clusterScopedObjectsGetTheirEventsInTheDefaultNamespace(KubernetesClient client) {
    var namespace = client.namespaces().withName(client.getNamespace()).get();
    EventRecorder recorder = EventRecorder.builder(client).component("converge-it").build();

    recorder.normal(namespace, "Observed", "namespace seen by the IT");

    List<Event> events = client.v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> namespace.getMetadata().getUid().equals(e.getInvolvedObject().getUid()))
        .toList();
    try {
      assertThat(events).singleElement().satisfies(e -> {
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

    assertThat(eventsAbout(client, involved)).singleElement()
        .satisfies(e -> assertThat(e.getCount()).isEqualTo(20));
  }

  @Test
  void longObjectNamesStillGetAValidEventName(KubernetesClient client) {
    EventRecorder recorder = EventRecorder.builder(client).component("converge-it").build();
    ConfigMap involved = subject(client, "n".repeat(253));

    recorder.normal(involved, "Observed", "a very long name");

    assertThat(eventsAbout(client, involved)).singleElement().satisfies(e -> {
      assertThat(e.getMetadata().getName()).hasSizeLessThanOrEqualTo(253);
      assertThat(e.getInvolvedObject().getName()).isEqualTo("n".repeat(253));
    });
  }
}
