package dev.converge.predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.operator.Operator;
import dev.converge.reconcile.Result;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code EventPredicate.contentChanged()} on the events a real API server sends: a ConfigMap that
 * references a Secret is reconciled when the Secret's data changes, and not when only its labels or
 * annotations do (each of those is a new resourceVersion and a watch event all the same).
 */
@ExtendWith(LocalClusterExtension.class)
class ContentChangedIT {

  private final AtomicInteger reconciles = new AtomicInteger();
  private Operator operator;

  @AfterEach
  void stop() {
    if (operator != null) {
      operator.stop();
    }
  }

  private int settledCount() {
    AtomicInteger last = new AtomicInteger(-1);
    await()
        .pollInterval(Duration.ofMillis(500))
        .atMost(Duration.ofSeconds(15))
        .until(() -> last.getAndSet(reconciles.get()) == reconciles.get());
    return reconciles.get();
  }

  @Test
  void aReferencedSecretReconcilesOnADataChangeOnly(KubernetesClient client, TestNamespace ns) {
    client
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("credentials")
                .endMetadata()
                .addToStringData("password", "one")
                .build())
        .create();
    client
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("app")
                .endMetadata()
                .addToData("secret", "credentials")
                .build())
        .create();
    operator =
        Operator.builder(client)
            .name("content-changed-it")
            .namespace(ns.name())
            .controller(
                ControllerBuilder.forPrimary(ConfigMap.class)
                    .watchesReferenced(
                        Secret.class,
                        cm ->
                            cm.getData() == null || cm.getData().get("secret") == null
                                ? List.of()
                                : List.of(cm.getData().get("secret")),
                        EventPredicate.contentChanged())
                    .build(
                        (cm, context) -> {
                          if ("app".equals(cm.getMetadata().getName())) {
                            reconciles.incrementAndGet();
                          }
                          return Result.done();
                        }))
            .build();
    operator.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> reconciles.get() > 0);
    int before = settledCount();

    client
        .secrets()
        .withName("credentials")
        .edit(
            s -> {
              s.getMetadata().setLabels(new HashMap<>(java.util.Map.of("rotated", "no")));
              s.getMetadata().setAnnotations(new HashMap<>(java.util.Map.of("note", "relabelled")));
              return s;
            });
    await()
        .during(Duration.ofSeconds(3))
        .atMost(Duration.ofSeconds(5))
        .until(() -> reconciles.get() == before);

    client
        .secrets()
        .withName("credentials")
        .edit(
            s -> {
              s.setStringData(java.util.Map.of("password", "two"));
              return s;
            });
    await().atMost(Duration.ofSeconds(30)).until(() -> reconciles.get() > before);
    assertThat(reconciles.get()).isGreaterThan(before);
  }
}
