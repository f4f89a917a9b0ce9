package dev.converge.operator.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.it.SilentWatch;
import dev.converge.metrics.ControllerMetrics;
import dev.converge.source.ResourceCache;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A watch can die without its client noticing (a connection dropped while the client did not read),
 * and the informer then serves a cache that no longer changes. A write that finds a cached object
 * behind the API server is the evidence; the informer must list again and watch anew, and its
 * handlers must hear of what changed meanwhile. Judged against the real API server's objects.
 */
@ExtendWith(LocalClusterExtension.class)
class StaleCacheIT {

  private SharedInformers informers;

  @AfterEach
  void stop() {
    if (informers != null) {
      informers.stop();
    }
  }

  private SharedInformers start(KubernetesClient client, TestNamespace ns, List<String> deleted)
      throws Exception {
    informers =
        new SharedInformers(
            client,
            Set.of(ns.name()),
            Duration.ZERO,
            new RejectedObjects(ControllerMetrics.none()),
            ControllerMetrics.none());
    informers.addHandler(
        ConfigMap.class,
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(ConfigMap obj) {}

          @Override
          public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {}

          @Override
          public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {
            deleted.add(obj.getMetadata().getName());
          }
        });
    informers.staleGrace(Duration.ofSeconds(1));
    informers.start().get(60, TimeUnit.SECONDS);
    return informers;
  }

  private static ConfigMap configMap(String namespace, String name, String value) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .endMetadata()
        .withData(Map.of("value", value))
        .build();
  }

  @Test
  void aSilentWatchIsReplacedOnceAWriteFindsTheCacheBehindTheServer(
      KubernetesClient client, TestNamespace ns) throws Exception {
    client.resource(configMap(ns.name(), "kept", "1")).create();
    client.resource(configMap(ns.name(), "doomed", "1")).create();
    List<String> deleted = new CopyOnWriteArrayList<>();
    SharedInformers informers = start(client, ns, deleted);
    ResourceCache<ConfigMap> cache = informers.of(ConfigMap.class);
    await().atMost(Duration.ofSeconds(10)).until(() -> cache.get(ns.name(), "doomed").isPresent());
    ConfigMap cachedDoomed = cache.get(ns.name(), "doomed").orElseThrow();

    SilentWatch.silence(informers.informersOf(ConfigMap.class).get(0));
    client.configMaps().inNamespace(ns.name()).withName("doomed").delete();
    client.resource(configMap(ns.name(), "kept", "2")).update();
    // the precondition: the cache no longer follows the server
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(3))
        .until(() -> cache.get(ns.name(), "doomed").isPresent());

    informers.serverMovedPast(cachedDoomed, "had deleted it");

    await()
        .atMost(Duration.ofSeconds(15))
        .untilAsserted(
            () -> {
              assertThat(cache.get(ns.name(), "doomed")).isEmpty();
              assertThat(cache.get(ns.name(), "kept").orElseThrow().getData())
                  .containsEntry("value", "2");
              // the handlers hear of it on the informer's own thread, after the store changed
              assertThat(deleted).containsExactly("doomed");
            });
    assertThat(informers.staleRelists(ConfigMap.class)).isEqualTo(1);
    assertThat(informers.failures()).isEmpty();

    // the new watch delivers: a later change reaches the cache without further help
    client.resource(configMap(ns.name(), "later", "1")).create();
    await().atMost(Duration.ofSeconds(10)).until(() -> cache.get(ns.name(), "later").isPresent());
  }

  @Test
  void aWatchThatGoesSilentAgainSoonAfterARelistIsRelistedOnceAllowed(
      KubernetesClient client, TestNamespace ns) throws Exception {
    client.resource(configMap(ns.name(), "first", "1")).create();
    client.resource(configMap(ns.name(), "second", "1")).create();
    SharedInformers informers = start(client, ns, new CopyOnWriteArrayList<>());
    informers.relistAtMostEvery(Duration.ofSeconds(6));
    ResourceCache<ConfigMap> cache = informers.of(ConfigMap.class);
    await().atMost(Duration.ofSeconds(10)).until(() -> cache.get(ns.name(), "second").isPresent());

    SilentWatch.silence(informers.informersOf(ConfigMap.class).get(0));
    ConfigMap first = cache.get(ns.name(), "first").orElseThrow();
    client.configMaps().inNamespace(ns.name()).withName("first").delete();
    informers.serverMovedPast(first, "had deleted it");
    await().atMost(Duration.ofSeconds(10)).until(() -> cache.get(ns.name(), "first").isEmpty());

    // the new watch delivers, then dies too, before another relist is allowed
    client.resource(configMap(ns.name(), "probe", "1")).create();
    await().atMost(Duration.ofSeconds(10)).until(() -> cache.get(ns.name(), "probe").isPresent());
    SilentWatch.silence(informers.informersOf(ConfigMap.class).get(0));
    ConfigMap second = cache.get(ns.name(), "second").orElseThrow();
    client.configMaps().inNamespace(ns.name()).withName("second").delete();
    informers.serverMovedPast(second, "had deleted it");

    await().atMost(Duration.ofSeconds(15)).until(() -> cache.get(ns.name(), "second").isEmpty());
    assertThat(informers.staleRelists(ConfigMap.class)).isEqualTo(2);
  }

  @Test
  void aCacheThatCatchesUpWithinTheGraceIsLeftAlone(KubernetesClient client, TestNamespace ns)
      throws Exception {
    client.resource(configMap(ns.name(), "moving", "1")).create();
    SharedInformers informers = start(client, ns, new CopyOnWriteArrayList<>());
    ResourceCache<ConfigMap> cache = informers.of(ConfigMap.class);
    await().atMost(Duration.ofSeconds(10)).until(() -> cache.get(ns.name(), "moving").isPresent());
    ConfigMap before = cache.get(ns.name(), "moving").orElseThrow();

    // a write the watch reports within milliseconds: the ordinary race, not a stale cache
    client.resource(configMap(ns.name(), "moving", "2")).update();
    informers.serverMovedPast(before, "was at a newer resourceVersion");

    await()
        .during(Duration.ofSeconds(3))
        .atMost(Duration.ofSeconds(4))
        .until(() -> informers.staleRelists(ConfigMap.class) == 0);
    assertThat(cache.get(ns.name(), "moving").orElseThrow().getData()).containsEntry("value", "2");
  }
}
