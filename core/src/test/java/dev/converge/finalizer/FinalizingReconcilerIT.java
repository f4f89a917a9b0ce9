package dev.converge.finalizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.converge.reconcile.Context;
import dev.converge.reconcile.Reconciler;
import dev.converge.reconcile.Result;
import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The finalizer protocol in front of a reconciler, writing to a real API server. The runtime's
 * {@link Context} is a stand-in that only hands out the client.
 */
@ExtendWith(LocalClusterExtension.class)
class FinalizingReconcilerIT {

  static final String FINALIZER = "finalizing-reconciler-it.converge.dev/cleanup";

  @Test
  void reconcilerSeesGuardedPrimariesAndCleanupEndsTheDeletion(KubernetesClient client)
      throws Exception {
    @SuppressWarnings("unchecked")
    Context<ConfigMap> context = mock(Context.class);
    when(context.client()).thenReturn(client);
    List<String> seen = new ArrayList<>();
    AtomicReference<CleanupResult> cleanup =
        new AtomicReference<>(CleanupResult.retryAfter(Duration.ofSeconds(7)));
    Reconciler<ConfigMap> inner =
        (primary, ctx) -> {
          seen.add(String.join(",", primary.getMetadata().getFinalizers()));
          return Result.requeueAfter(Duration.ofSeconds(30));
        };
    Reconciler<ConfigMap> reconciler =
        FinalizingReconciler.wrap(FINALIZER, (primary, ctx) -> cleanup.get(), inner);
    ConfigMap live =
        client
            .configMaps()
            .resource(
                new ConfigMapBuilder().withNewMetadata().withName("external").endMetadata().build())
            .create();

    assertThat(reconciler.reconcile(live, context))
        .isEqualTo(Result.requeueAfter(Duration.ofSeconds(30)));
    assertThat(seen).containsExactly(FINALIZER);
    assertThat(client.configMaps().withName("external").get().getMetadata().getFinalizers())
        .containsExactly(FINALIZER);

    client.configMaps().withName("external").delete();
    ConfigMap deleting = client.configMaps().withName("external").get();
    assertThat(reconciler.reconcile(deleting, context))
        .isEqualTo(Result.requeueAfter(Duration.ofSeconds(7)));
    assertThat(client.configMaps().withName("external").get()).isNotNull();

    cleanup.set(CleanupResult.done());
    assertThat(reconciler.reconcile(client.configMaps().withName("external").get(), context))
        .isEqualTo(Result.done());
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(client.configMaps().withName("external").get()).isNull());
    assertThat(seen).as("the wrapped reconciler never sees a deleting primary").hasSize(1);
  }
}
