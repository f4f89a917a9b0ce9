package dev.converge.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.it.TestCrds;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.WidgetCrd;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The status writer against a real API server and a CRD with a status subresource. */
@ExtendWith(LocalClusterExtension.class)
class StatusWriterIT {

  static final String GROUP = "statuswriterit.converge.dev";

  public static class WidgetSpec {
    private Integer size;

    public Integer getSize() {
      return size;
    }

    public void setSize(Integer size) {
      this.size = size;
    }
  }

  public static class WidgetStatus {
    private String phase;
    private Long observedGeneration;
    private List<Condition> conditions = new ArrayList<>();

    public String getPhase() {
      return phase;
    }

    public void setPhase(String phase) {
      this.phase = phase;
    }

    public Long getObservedGeneration() {
      return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
      this.observedGeneration = observedGeneration;
    }

    public List<Condition> getConditions() {
      return conditions;
    }

    public void setConditions(List<Condition> conditions) {
      this.conditions = conditions;
    }
  }

  @Group(GROUP)
  @Version("v1")
  @Kind("Widget")
  public static class Widget extends CustomResource<WidgetSpec, WidgetStatus>
      implements Namespaced {}

  /** Counts the requests a client sends, as "METHOD path". */
  static final class RequestLog implements Interceptor {
    final List<String> requests = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
      requests.add(request.method() + " " + request.uri().getPath());
    }
  }

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    try (KubernetesClient admin = cluster.newClient()) {
      TestCrds.install(admin, WidgetCrd.inGroup(GROUP));
    }
  }

  @AfterAll
  static void removeCrd(LocalCluster cluster) {
    try (KubernetesClient admin = cluster.newClient()) {
      TestCrds.uninstall(admin, WidgetCrd.inGroup(GROUP));
    }
  }

  private static Widget createWidget(KubernetesClient client, String name, String phase) {
    Widget w = new Widget();
    w.getMetadata().setName(name);
    w.setSpec(new WidgetSpec());
    w.getSpec().setSize(1);
    Widget created = client.resource(w).create();
    created.setStatus(new WidgetStatus());
    created.getStatus().setPhase(phase);
    return client.resource(created).updateStatus();
  }

  private static KubernetesClient countingClient(
      LocalCluster cluster, String namespace, RequestLog log) {
    return new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder(cluster.config()).withNamespace(namespace).build())
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("count", log))
        .build();
  }

  @Test
  void unchangedStatusSendsNoRequest(KubernetesClient client, LocalCluster cluster) {
    Widget asRead = createWidget(client, "calm", "Running");
    RequestLog log = new RequestLog();
    try (KubernetesClient counted = countingClient(cluster, client.getNamespace(), log)) {
      StatusWriter writer = StatusWriter.create(counted);

      StatusOutcome<Widget> noChange = writer.update(asRead, w -> {});
      StatusOutcome<Widget> sameValue =
          writer.update(asRead, w -> w.getStatus().setPhase("Running"));
      StatusOutcome<Widget> locked = writer.withOptimisticLock().update(asRead, w -> {});

      assertThat(noChange.written()).isFalse();
      assertThat(sameValue.written()).isFalse();
      assertThat(locked.written()).isFalse();
      assertThat(noChange.object()).isSameAs(asRead);
      assertThat(log.requests).isEmpty();
    }
  }

  @Test
  void writesOnlyThroughTheStatusSubresource(KubernetesClient client, LocalCluster cluster) {
    Widget asRead = createWidget(client, "busy", "Pending");
    RequestLog log = new RequestLog();
    try (KubernetesClient counted = countingClient(cluster, client.getNamespace(), log)) {
      StatusOutcome<Widget> outcome =
          StatusWriter.create(counted)
              .update(
                  asRead,
                  w -> {
                    w.getSpec().setSize(99);
                    w.getStatus().setPhase("Running");
                  });

      assertThat(outcome.written()).isTrue();
      assertThat(outcome.object().getStatus().getPhase()).isEqualTo("Running");
      assertThat(log.requests)
          .singleElement()
          .satisfies(r -> assertThat(r).startsWith("PATCH ").endsWith("/widgets/busy/status"));
    }
    Widget live = client.resources(Widget.class).withName("busy").get();
    assertThat(live.getStatus().getPhase()).isEqualTo("Running");
    assertThat(live.getSpec().getSize()).as("spec change must not be persisted").isEqualTo(1);
    assertThat(asRead.getSpec().getSize()).as("object as read is not modified").isEqualTo(1);
    assertThat(asRead.getStatus().getPhase()).isEqualTo("Pending");
  }

  @Test
  void optimisticLockTurnsAStaleWriteIntoAConflict(KubernetesClient client) {
    Widget stale = createWidget(client, "raced", "Pending");
    StatusWriter.create(client).update(stale, w -> w.getStatus().setPhase("Failed"));

    StatusWriter locked = StatusWriter.create(client).withOptimisticLock();
    assertThatThrownBy(() -> locked.update(stale, w -> w.getStatus().setPhase("Running")))
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(409));
    assertThat(client.resources(Widget.class).withName("raced").get().getStatus().getPhase())
        .isEqualTo("Failed");

    Widget fresh = client.resources(Widget.class).withName("raced").get();
    assertThat(
            locked
                .update(fresh, w -> w.getStatus().setPhase("Running"))
                .object()
                .getStatus()
                .getPhase())
        .isEqualTo("Running");
  }

  @Test
  void withoutTheLockAStaleWriteChangesOnlyTheFieldsItSets(KubernetesClient client) {
    Widget stale = createWidget(client, "merged", "Pending");
    StatusWriter.create(client).update(stale, w -> w.getStatus().setObservedGeneration(5L));

    StatusWriter.create(client).update(stale, w -> w.getStatus().setPhase("Running"));

    WidgetStatus live = client.resources(Widget.class).withName("merged").get().getStatus();
    assertThat(live.getPhase()).isEqualTo("Running");
    assertThat(live.getObservedGeneration())
        .as("field set by the other writer survives")
        .isEqualTo(5L);
  }

  @Test
  void conditionsRoundTripWithoutRewrites(KubernetesClient client, LocalCluster cluster) {
    Conditions conditions =
        new Conditions(Clock.fixed(Instant.parse("2026-11-29T10:00:00Z"), ZoneOffset.UTC));
    Widget asRead = createWidget(client, "ready", "Pending");
    StatusWriter writer = StatusWriter.create(client);
    Widget written =
        writer
            .update(
                asRead,
                w -> {
                  w.getStatus()
                      .setConditions(
                          conditions.set(
                              w.getStatus().getConditions(),
                              w,
                              "Ready",
                              ConditionStatus.FALSE,
                              "Scaling",
                              "0 of 1 ready"));
                  w.getStatus().setObservedGeneration(w.getMetadata().getGeneration());
                })
            .object();
    Widget reread = client.resources(Widget.class).withName("ready").get();

    RequestLog log = new RequestLog();
    try (KubernetesClient counted = countingClient(cluster, client.getNamespace(), log)) {
      StatusOutcome<Widget> again =
          StatusWriter.create(counted)
              .update(
                  reread,
                  w ->
                      w.getStatus()
                          .setConditions(
                              conditions.set(
                                  w.getStatus().getConditions(),
                                  w,
                                  "Ready",
                                  ConditionStatus.FALSE,
                                  "Scaling",
                                  "0 of 1 ready")));
      assertThat(again.written()).isFalse();
      assertThat(log.requests).isEmpty();
    }
    assertThat(Conditions.lastTransitionTime(written.getStatus().getConditions(), "Ready"))
        .contains(Instant.parse("2026-11-29T10:00:00Z"));
    assertThat(reread.getStatus().getObservedGeneration()).isEqualTo(1L);
    assertThat(reread.getStatus().getConditions())
        .singleElement()
        .satisfies(c -> assertThat(c.getObservedGeneration()).isEqualTo(1L));
  }

  @Test
  void genericResourcesAreWrittenTheSameWay(KubernetesClient client, LocalCluster cluster) {
    createWidget(client, "untyped", "Pending");
    GenericKubernetesResource asRead =
        client.genericKubernetesResources(GROUP + "/v1", "Widget").withName("untyped").get();

    StatusOutcome<GenericKubernetesResource> outcome =
        StatusWriter.create(client)
            .update(asRead, g -> g.setAdditionalProperty("status", Map.of("phase", "Running")));
    assertThat(outcome.written()).isTrue();

    RequestLog log = new RequestLog();
    try (KubernetesClient counted = countingClient(cluster, client.getNamespace(), log)) {
      StatusOutcome<GenericKubernetesResource> again =
          StatusWriter.create(counted)
              .update(
                  outcome.object(),
                  g -> g.setAdditionalProperty("status", Map.of("phase", "Running")));
      assertThat(again.written()).isFalse();
      assertThat(log.requests).isEmpty();
    }
    assertThat(client.resources(Widget.class).withName("untyped").get().getStatus().getPhase())
        .isEqualTo("Running");
  }
}
