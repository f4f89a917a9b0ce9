package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.operator.Operator;
import dev.converge.reconcile.ObjectKey;
import dev.converge.reconcile.Result;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An operator told to watch a set of namespaces reconciles objects in each of them, reads them from
 * its cache, and never sees objects of a namespace outside the set.
 */
@ExtendWith(LocalClusterExtension.class)
class WatchedNamespacesIT {

  private final String suffix = UUID.randomUUID().toString().substring(0, 6);
  private final List<String> namespaces =
      List.of("watched-a-" + suffix, "watched-b-" + suffix, "ignored-" + suffix);
  private KubernetesClient admin;

  @AfterEach
  void deleteNamespaces() {
    if (admin != null) {
      namespaces.forEach(ns -> admin.namespaces().withName(ns).delete());
      admin.close();
    }
  }

  @Test
  void reconcilesEveryWatchedNamespaceAndNothingElse(LocalCluster cluster) {
    admin = cluster.newClient();
    for (String ns : namespaces) {
      admin
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .create();
      admin
          .configMaps()
          .inNamespace(ns)
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName("settings")
                  .endMetadata()
                  .addToData("k", ns)
                  .build())
          .create();
    }
    Set<ObjectKey> reconciled = ConcurrentHashMap.newKeySet();
    Set<String> cachedValues = ConcurrentHashMap.newKeySet();

    try (KubernetesClient operatorClient = cluster.newClient();
        Operator operator =
            Operator.builder(operatorClient)
                .name("namespaces-it")
                .namespaces(namespaces.subList(0, 2))
                .controller(
                    ControllerBuilder.forPrimary(ConfigMap.class)
                        .named("settings-" + suffix)
                        .build(
                            (cm, ctx) -> {
                              reconciled.add(ctx.key());
                              ctx.cache(ConfigMap.class)
                                  .get(ctx.key().namespace(), ctx.key().name())
                                  .map(c -> c.getData().get("k")) // kube-root-ca.crt has no "k"
                                  .ifPresent(cachedValues::add);
                              return Result.done();
                            }))
                .build()) {
      operator.start();
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(reconciled)
                      .contains(
                          new ObjectKey(namespaces.get(0), "settings"),
                          new ObjectKey(namespaces.get(1), "settings")));

      assertThat(reconciled).noneMatch(k -> k.namespace().equals(namespaces.get(2)));
      assertThat(cachedValues)
          .contains(namespaces.get(0), namespaces.get(1))
          .doesNotContain(namespaces.get(2));
      assertThat(operator.caches().of(ConfigMap.class).list(namespaces.get(2))).isEmpty();
      assertThat(operator.caches().of(ConfigMap.class).list())
          .extracting(c -> c.getMetadata().getNamespace())
          .containsOnly(namespaces.get(0), namespaces.get(1));
    }
  }
}
