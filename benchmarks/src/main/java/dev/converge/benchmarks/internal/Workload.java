package dev.converge.benchmarks.internal;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The objects of a run: {@code objects} AppDeployments named {@code app-<i>}, spread round-robin
 * over {@code namespaces} namespaces {@code bench-<j>}, each with {@code replicas} pods; the first
 * {@code configMaps} of them reference a ConfigMap {@code cfg-<i>} of their own (the fan-out).
 */
public record Workload(int objects, int namespaces, int replicas, int configMaps, String image) {

  /** Requests sent at once when creating or changing many objects. */
  public static final int CONCURRENCY = 32;

  /** One object of the workload. */
  public record Item(String namespace, String name, String configMap) {
    public String key() {
      return namespace + "/" + name;
    }

    public boolean hasConfigMap() {
      return configMap != null;
    }
  }

  public List<Item> items() {
    List<Item> items = new ArrayList<>(objects);
    for (int i = 0; i < objects; i++) {
      items.add(
          new Item("bench-" + (i % namespaces), "app-" + i, i < configMaps ? "cfg-" + i : null));
    }
    return items;
  }

  public Set<String> keys() {
    return items().stream().map(Item::key).collect(Collectors.toSet());
  }

  public List<Item> withConfigMaps() {
    return items().stream().filter(Item::hasConfigMap).toList();
  }

  /** The namespaces and the ConfigMaps, which exist before the operator or floor starts. */
  public void prepare(KubernetesClient admin) {
    for (int j = 0; j < namespaces; j++) {
      admin
          .namespaces()
          .resource(
              new NamespaceBuilder().withNewMetadata().withName("bench-" + j).endMetadata().build())
          .serverSideApply();
    }
    inParallel(
        withConfigMaps(),
        item ->
            admin
                .configMaps()
                .inNamespace(item.namespace())
                .resource(
                    new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName(item.configMap())
                        .withNamespace(item.namespace())
                        .endMetadata()
                        .withData(configData("v1"))
                        .build())
                .create());
  }

  /** The content of every ConfigMap at a given version. */
  public static Map<String, String> configData(String version) {
    return Map.of("GREETING", "hello", "VERSION", version);
  }

  /** Changes every ConfigMap's content to {@code version}, all at once. */
  public void changeConfigMaps(KubernetesClient admin, String version) {
    inParallel(
        withConfigMaps(),
        item ->
            admin
                .configMaps()
                .inNamespace(item.namespace())
                .withName(item.configMap())
                .edit(
                    cm -> {
                      cm.setData(configData(version));
                      return cm;
                    }));
  }

  /** The AppDeployment of one item, as the generic resource any operator's CRD accepts. */
  public GenericKubernetesResource appDeployment(Item item) {
    GenericKubernetesResource app = new GenericKubernetesResource();
    app.setApiVersion("apps.converge.dev/v1");
    app.setKind("AppDeployment");
    app.setMetadata(
        new ObjectMetaBuilder().withName(item.name()).withNamespace(item.namespace()).build());
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("image", image);
    spec.put("replicas", replicas);
    if (item.hasConfigMap()) {
      spec.put("configMapName", item.configMap());
    }
    app.setAdditionalProperty("spec", spec);
    return app;
  }

  /** Runs {@code action} for every item with {@link #CONCURRENCY} requests in flight. */
  public static void inParallel(List<Item> items, Consumer<Item> action) {
    ExecutorService pool = Executors.newFixedThreadPool(CONCURRENCY);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (Item item : items) {
        futures.add(pool.submit(() -> action.accept(item)));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(
          "a request of the workload failed: " + e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while sending the workload", e);
    } finally {
      pool.shutdownNow();
    }
  }
}
