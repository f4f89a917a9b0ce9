package dev.converge.operator.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.metrics.ControllerMetrics;
import dev.converge.source.ResourceCache;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Informers list in pages, so that a kind with many objects is never held as one whole response.
 * Every object of every page must reach the cache and the handlers, judged by the objects created
 * on the real API server, and the pages must be what the client asked the server for.
 */
@ExtendWith(LocalClusterExtension.class)
class PagedListIT {

  /** The list requests the client sent for ConfigMaps: their query strings. */
  private static final class ListRequests implements Interceptor {
    final List<String> queries = new CopyOnWriteArrayList<>();

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
      String query = request.uri().getRawQuery();
      if (request.method().equals("GET")
          && request.uri().getPath().endsWith("/configmaps")
          && (query == null || !query.contains("watch=true"))) {
        queries.add(query == null ? "" : query);
      }
    }
  }

  @Test
  void everyObjectOfEveryPageIsCachedAndHeardOf(
      LocalCluster cluster, KubernetesClient client, TestNamespace ns) throws Exception {
    int objects = 2 * (int) SharedInformers.LIST_PAGE_SIZE + 201; // three pages
    // The controller manager publishes the namespace's kube-root-ca.crt on its own time: counted
    // below, it must be there before the informers list.
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                client.configMaps().inNamespace(ns.name()).withName("kube-root-ca.crt").get()
                    != null);
    IntStream.range(0, objects)
        .parallel()
        .forEach(
            i ->
                client
                    .resource(
                        new ConfigMapBuilder()
                            .withNewMetadata()
                            .withName("cm-" + i)
                            .withNamespace(ns.name())
                            .endMetadata()
                            .withData(Map.of("index", Integer.toString(i)))
                            .build())
                    .create());

    ListRequests lists = new ListRequests();
    Set<String> added = ConcurrentHashMap.newKeySet();
    try (KubernetesClient recorded =
        cluster
            .clientBuilder()
            .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("lists", lists))
            .build()) {
      SharedInformers informers =
          new SharedInformers(
              recorded,
              Set.of(ns.name()),
              Duration.ZERO,
              new RejectedObjects(ControllerMetrics.none()),
              ControllerMetrics.none());
      informers.addHandler(
          ConfigMap.class,
          new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap obj) {
              added.add(obj.getMetadata().getName());
            }

            @Override
            public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {}

            @Override
            public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {}
          });
      try {
        informers.start().get(60, TimeUnit.SECONDS);
        ResourceCache<ConfigMap> cache = informers.of(ConfigMap.class);

        // the cache holds what the server holds, object for object (the namespace's own
        // kube-root-ca.crt included)
        List<ConfigMap> onServer = client.configMaps().inNamespace(ns.name()).list().getItems();
        assertThat(onServer).hasSize(objects + 1);
        for (ConfigMap expected : onServer) {
          String name = expected.getMetadata().getName();
          assertThat(cache.get(ns.name(), name))
              .as(name)
              .hasValueSatisfying(
                  cached -> assertThat(cached.getData()).isEqualTo(expected.getData()));
        }
        org.awaitility.Awaitility.await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> added.size() == objects + 1);
        assertThat(added).contains("cm-0", "cm-500", "cm-" + (objects - 1));
      } finally {
        informers.stop();
      }
    }

    // three pages of at most 500: the first without a continue token, two with one
    assertThat(lists.queries).hasSize(3);
    assertThat(lists.queries).allSatisfy(q -> assertThat(q).contains("limit=500"));
    assertThat(lists.queries.get(0)).doesNotContain("continue=");
    assertThat(lists.queries.subList(1, 3)).allSatisfy(q -> assertThat(q).contains("continue="));
  }
}
