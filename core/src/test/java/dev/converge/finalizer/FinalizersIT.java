package dev.converge.finalizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.converge.it.TestCrds;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.WidgetCrd;
import dev.converge.unittest.TestContext;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Finalizers and the cleanup protocol on a real API server. */
@ExtendWith(LocalClusterExtension.class)
class FinalizersIT {

  static final String GROUP = "finalizersit.converge.dev";
  static final String OURS = "finalizersit.converge.dev/cleanup";
  static final String OTHERS = "others.example.com/keep";
  static final String THIRD = "third.example.com/hold";

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

  private static MixedOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      widgets(KubernetesClient client) {
    return client.genericKubernetesResources(GROUP + "/v1", "Widget");
  }

  private static GenericKubernetesResource createWidget(KubernetesClient client, String name) {
    return widgets(client)
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion(GROUP + "/v1")
                .withKind("Widget")
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("size", 1)))
                .build())
        .create();
  }

  @Test
  void addAndRemoveLeaveOtherFinalizersAlone(KubernetesClient client) {
    ConfigMap created =
        client
            .configMaps()
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("guarded")
                    .addToFinalizers(OTHERS)
                    .endMetadata()
                    .build())
            .create();
    Finalizers finalizers = new Finalizers(client);
    try {
      // Someone else adds a finalizer after we read: our add must not drop it.
      client
          .configMaps()
          .withName("guarded")
          .edit(
              cm ->
                  new ConfigMapBuilder(cm)
                      .editMetadata()
                      .addToFinalizers(THIRD)
                      .endMetadata()
                      .build());

      ConfigMap added = finalizers.add(created, OURS);
      assertThat(added.getMetadata().getFinalizers()).containsExactly(OTHERS, THIRD, OURS);
      assertThat(Finalizers.contains(added, OURS)).isTrue();

      ConfigMap again = finalizers.add(added, OURS);
      assertThat(again).as("already present: nothing sent").isSameAs(added);

      // The third party removes its finalizer after we read: our removal must not restore it.
      client
          .configMaps()
          .withName("guarded")
          .edit(
              cm ->
                  new ConfigMapBuilder(cm)
                      .editMetadata()
                      .removeFromFinalizers(THIRD)
                      .endMetadata()
                      .build());
      ConfigMap removed = finalizers.remove(added, OURS);

      assertThat(removed.getMetadata().getFinalizers()).containsExactly(OTHERS);
      assertThat(client.configMaps().withName("guarded").get().getMetadata().getFinalizers())
          .containsExactly(OTHERS);
      assertThat(finalizers.remove(removed, OURS)).isSameAs(removed);
    } finally {
      client
          .configMaps()
          .withName("guarded")
          .edit(
              cm ->
                  new ConfigMapBuilder(cm)
                      .editMetadata()
                      .withFinalizers(new ArrayList<>())
                      .endMetadata()
                      .build());
    }
  }

  @Test
  void removingFromAnObjectAlreadyGoneIsDone(KubernetesClient client) {
    ConfigMap stale =
        client
            .configMaps()
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("gone")
                    .addToFinalizers(OURS)
                    .endMetadata()
                    .build())
            .create();
    // Another actor releases the object and it is deleted while this copy still shows the finalizer
    // (a cache a moment behind): the removal finds nothing to do and is no error.
    client
        .configMaps()
        .withName("gone")
        .edit(
            cm ->
                new ConfigMapBuilder(cm)
                    .editMetadata()
                    .withFinalizers(new ArrayList<>())
                    .endMetadata()
                    .build());
    client.configMaps().withName("gone").delete();
    org.awaitility.Awaitility.await()
        .until(() -> client.configMaps().withName("gone").get() == null);

    assertThat(new Finalizers(client).remove(stale, OURS)).isSameAs(stale);
  }

  @Test
  void finalizerNamesMustBeQualified(KubernetesClient client) {
    ConfigMap created =
        client
            .configMaps()
            .resource(
                new ConfigMapBuilder().withNewMetadata().withName("plain").endMetadata().build())
            .create();

    assertThatThrownBy(() -> new Finalizers(client).add(created, "cleanup"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("example.com/cleanup")
        .hasMessageContaining("ConfigMap " + client.getNamespace() + "/plain");
  }

  @Test
  void cleanupRunsWhileTheObjectStillExistsAndThenDeletionCompletes(KubernetesClient client) {
    AtomicReference<Boolean> existedDuringCleanup = new AtomicReference<>();
    Finalization<GenericKubernetesResource> finalization =
        new Finalization<>(
            new Finalizers(client),
            OURS,
            (primary, context) -> {
              existedDuringCleanup.set(
                  widgets(client).withName(primary.getMetadata().getName()).get() != null);
              return CleanupResult.done();
            });
    GenericKubernetesResource widget = createWidget(client, "tidy");

    FinalizationOutcome<GenericKubernetesResource> first =
        finalization.apply(widget, TestContext.of(widget));
    assertThat(first).isInstanceOf(FinalizationOutcome.Proceed.class);
    GenericKubernetesResource guarded =
        ((FinalizationOutcome.Proceed<GenericKubernetesResource>) first).primary();
    assertThat(guarded.getMetadata().getFinalizers()).containsExactly(OURS);
    assertThat(existedDuringCleanup.get()).as("no cleanup while not deleting").isNull();

    widgets(client).withName("tidy").delete();
    GenericKubernetesResource deleting = widgets(client).withName("tidy").get();
    assertThat(deleting).as("finalizer holds the deletion").isNotNull();
    assertThat(deleting.getMetadata().getDeletionTimestamp()).isNotNull();

    assertThat(finalization.apply(deleting, TestContext.of(deleting)))
        .isInstanceOf(FinalizationOutcome.Finalized.class);

    assertThat(existedDuringCleanup.get()).isTrue();
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(widgets(client).withName("tidy").get()).isNull());
  }

  @Test
  void failingOrUnfinishedCleanupKeepsTheObject(KubernetesClient client) {
    List<String> calls = new ArrayList<>();
    AtomicReference<String> mode = new AtomicReference<>("fail");
    Finalization<GenericKubernetesResource> finalization =
        new Finalization<>(
            new Finalizers(client),
            OURS,
            (primary, context) -> {
              calls.add(mode.get());
              switch (mode.get()) {
                case "fail" -> throw new IOException("cloud API unavailable");
                case "pending" -> {
                  return CleanupResult.retryAfter(Duration.ofSeconds(5));
                }
                default -> {
                  return CleanupResult.done();
                }
              }
            });
    GenericKubernetesResource widget = createWidget(client, "stubborn");
    finalization.apply(widget, TestContext.of(widget));
    widgets(client).withName("stubborn").delete();
    GenericKubernetesResource deleting = widgets(client).withName("stubborn").get();

    assertThatThrownBy(() -> finalization.apply(deleting, TestContext.of(deleting)))
        .isInstanceOf(FinalizerCleanupException.class)
        .hasMessageContaining("Widget " + client.getNamespace() + "/stubborn")
        .hasMessageContaining(OURS)
        .hasRootCauseMessage("cloud API unavailable");
    GenericKubernetesResource afterFailure = widgets(client).withName("stubborn").get();
    assertThat(afterFailure).isNotNull();
    assertThat(afterFailure.getMetadata().getFinalizers()).containsExactly(OURS);

    mode.set("pending");
    assertThat(finalization.apply(afterFailure, TestContext.of(afterFailure)))
        .isEqualTo(new FinalizationOutcome.CleanupPending<>(Duration.ofSeconds(5)));
    assertThat(widgets(client).withName("stubborn").get().getMetadata().getFinalizers())
        .containsExactly(OURS);

    mode.set("done");
    GenericKubernetesResource stubborn = widgets(client).withName("stubborn").get();
    assertThat(finalization.apply(stubborn, TestContext.of(stubborn)))
        .isInstanceOf(FinalizationOutcome.Finalized.class);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(widgets(client).withName("stubborn").get()).isNull());
    assertThat(calls).containsExactly("fail", "pending", "done");
  }

  @Test
  void deletingObjectWithoutOurFinalizerNeedsNothing(KubernetesClient client) {
    ConfigMap held =
        client
            .configMaps()
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("foreign")
                    .addToFinalizers(OTHERS)
                    .endMetadata()
                    .build())
            .create();
    List<String> calls = new ArrayList<>();
    Finalization<ConfigMap> finalization =
        new Finalization<>(
            new Finalizers(client),
            OURS,
            (primary, context) -> {
              calls.add("cleanup");
              return CleanupResult.done();
            });
    try {
      client.resource(held).delete();
      ConfigMap deleting = client.configMaps().withName("foreign").get();

      assertThat(finalization.apply(deleting, TestContext.of(deleting)))
          .isInstanceOf(FinalizationOutcome.NotOurs.class);
      assertThat(calls).isEmpty();
      assertThatThrownBy(() -> new Finalizers(client).add(deleting, OURS))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("being deleted");
    } finally {
      client
          .configMaps()
          .withName("foreign")
          .edit(
              cm ->
                  new ConfigMapBuilder(cm)
                      .editMetadata()
                      .withFinalizers(new ArrayList<>())
                      .endMetadata()
                      .build());
    }
  }
}
