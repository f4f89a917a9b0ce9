package dev.converge.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.operator.Operator;
import dev.converge.reconcile.Result;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An operator authorized by exactly the role Converge computes for it (its ClusterRole and binding
 * from {@code Operator.permissions()}, applied to a ServiceAccount the API server impersonates)
 * records the same Warning on five reconciles: the API server holds one Event for it, counted 5. A
 * repeat is folded into the Event with the verbs that role grants on Events (create, patch), so no
 * repeat is refused and lost.
 */
@ExtendWith(LocalClusterExtension.class)
class EventRepeatIT {

  static final String MESSAGE = "setting mode=turbo is not supported";

  @Test
  void aRepeatedWarningIsOneEventCountedUnderTheGeneratedRole(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    String account = "event-repeat";
    String user = "system:serviceaccount:" + ns.name() + ":" + account;
    // Cluster-scoped and labelled with its name (at most 63 characters): one per test namespace.
    String roleName = "event-repeat-it-" + Integer.toHexString(ns.name().hashCode());
    // Each change of data.round is one reconcile that records; a reconcile of a round already seen
    // (an informer resync) records nothing, so the count is exactly the number of rounds.
    Set<String> recorded = ConcurrentHashMap.newKeySet();
    List<HasMetadata> rbac = new ArrayList<>();

    try (KubernetesClient asOperator =
            cluster.clientAs(
                user,
                "system:serviceaccounts",
                "system:serviceaccounts:" + ns.name(),
                "system:authenticated");
        Operator operator =
            Operator.builder(asOperator)
                .name("event-repeat")
                .namespace(ns.name())
                .accessReviewInterval(Duration.ofSeconds(1))
                .controller(
                    ControllerBuilder.forPrimary(ConfigMap.class)
                        .build(
                            (cm, context) -> {
                              Map<String, String> data = cm.getData();
                              if (data != null
                                  && data.containsKey("reason")
                                  && recorded.add(
                                      cm.getMetadata().getUid() + "/" + data.get("round"))) {
                                context.events().warning(cm, data.get("reason"), MESSAGE);
                              }
                              return Result.done();
                            }))
                .build()) {
      rbac.addAll(operator.permissions().manifests(roleName, ns.name(), account));
      assertThat(
              rbac.stream()
                  .filter(ClusterRole.class::isInstance)
                  .map(ClusterRole.class::cast)
                  .flatMap(role -> role.getRules().stream())
                  .filter(rule -> rule.getResources().contains("events"))
                  .flatMap(rule -> rule.getVerbs().stream())
                  .toList())
          .as("what the generated role grants on Events: no get")
          .containsExactlyInAnyOrder("create", "patch");
      rbac.forEach(object -> admin.resource(object).create());
      operator.start();
      assertThat(operator.awaitCachesSynced(Duration.ofSeconds(60))).isTrue();
      // Ready once the API server grants everything the operator reviews, Events included: the
      // first Warning is not sent before the new binding is in force.
      await().atMost(Duration.ofSeconds(60)).until(() -> operator.health().ready());

      ConfigMap refused =
          admin
              .configMaps()
              .inNamespace(ns.name())
              .resource(
                  new ConfigMapBuilder()
                      .withNewMetadata()
                      .withName("turbo")
                      .endMetadata()
                      .withData(Map.of("reason", "UnsupportedSetting", "round", "1"))
                      .build())
              .create();
      awaitEvents(admin, refused, Tuple.tuple("UnsupportedSetting", 1));

      for (int round = 2; round <= 5; round++) {
        setData(admin, refused, "UnsupportedSetting", round);
        // Each repeat is written on its own (the previous one is on the server), so each is a
        // fold of the stored Event rather than a count gathered while waiting in the queue.
        awaitEvents(admin, refused, Tuple.tuple("UnsupportedSetting", round));
      }

      setData(admin, refused, "MissingReference", 6);
      awaitEvents(
          admin, refused, Tuple.tuple("UnsupportedSetting", 5), Tuple.tuple("MissingReference", 1));
    } finally {
      rbac.forEach(object -> admin.resource(object).delete());
    }
  }

  private static void setData(KubernetesClient admin, ConfigMap cm, String reason, int round) {
    admin
        .configMaps()
        .inNamespace(cm.getMetadata().getNamespace())
        .withName(cm.getMetadata().getName())
        .edit(
            live ->
                new ConfigMapBuilder(live)
                    .withData(Map.of("reason", reason, "round", Integer.toString(round)))
                    .build());
  }

  /** Waits until the API server holds exactly these (reason, count) Events about {@code cm}. */
  private static void awaitEvents(KubernetesClient admin, ConfigMap cm, Tuple... reasonAndCount) {
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              List<Event> events =
                  admin
                      .v1()
                      .events()
                      .inNamespace(cm.getMetadata().getNamespace())
                      .list()
                      .getItems()
                      .stream()
                      .filter(e -> cm.getMetadata().getUid().equals(e.getInvolvedObject().getUid()))
                      .toList();
              assertThat(events)
                  .allSatisfy(
                      e -> {
                        assertThat(e.getType()).isEqualTo("Warning");
                        assertThat(e.getMessage()).isEqualTo(MESSAGE);
                        assertThat(e.getInvolvedObject().getName())
                            .isEqualTo(cm.getMetadata().getName());
                      })
                  .extracting(Event::getReason, Event::getCount)
                  .containsExactlyInAnyOrder(reasonAndCount);
            });
  }
}
