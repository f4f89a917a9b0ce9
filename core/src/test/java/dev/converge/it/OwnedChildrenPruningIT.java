package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.metrics.MicrometerControllerMetrics;
import dev.converge.operator.Operator;
import dev.converge.reconcile.Result;
import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code ControllerBuilder.pruneOwned()} on a real API server. A ServiceAccount primary wants the
 * ConfigMaps its annotation {@code test/want} lists ({@code <sa>-<suffix>}); the annotation {@code
 * test/mode} makes its reconcile throw, ask for a requeue, or meet a write the API server refuses.
 * What is pruned and what is kept is read back with a plain client, the kept objects compared by
 * UID with what was there before (same UID: never deleted and re-created); a reconcile is known to
 * have ended from the operator's {@code converge.reconcile} timer.
 */
@ExtendWith(LocalClusterExtension.class)
class OwnedChildrenPruningIT {

  private static final String CONTROLLER = "pruning-it";
  private static final Duration CONVERGE = Duration.ofSeconds(60);

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private Operator operator;

  @AfterEach
  void stop() {
    if (operator != null) {
      operator.stop();
    }
  }

  /** What the ServiceAccount controller does, by the primary's annotations. */
  private static Result reconcile(
      ServiceAccount sa, dev.converge.reconcile.Context<ServiceAccount> context) {
    Map<String, String> annotations =
        Objects.requireNonNullElse(sa.getMetadata().getAnnotations(), Map.of());
    String gen = annotations.getOrDefault("test/gen", "0");
    for (String suffix : annotations.getOrDefault("test/want", "").split(",", -1)) {
      if (!suffix.isBlank()) {
        context.apply(configMap(sa, sa.getMetadata().getName() + "-" + suffix.trim(), gen));
      }
    }
    switch (annotations.getOrDefault("test/mode", "ok")) {
      case "throw" -> throw new IllegalStateException("failing on purpose");
      case "requeue" -> {
        return Result.requeue();
      }
      case "requeue-after" -> {
        return Result.requeueAfter(Duration.ofHours(1));
      }
      case "refused-caught" -> {
        try {
          context.apply(configMap(sa, "Not_A_Valid_Name", gen)); // 422 from the API server
        } catch (KubernetesClientException expected) {
          // a reconciler that swallows a refusal and says done: still nothing may be pruned
        }
        return Result.done();
      }
      default -> {
        return Result.done();
      }
    }
  }

  private static ConfigMap configMap(HasMetadata owner, String name, String gen) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(owner.getMetadata().getNamespace())
        .endMetadata()
        .addToData("gen", gen)
        .build();
  }

  private void start(KubernetesClient client, TestNamespace ns) {
    ConfigMapTestStrategy strategy = new ConfigMapTestStrategy();
    operator =
        Operator.builder(client)
            .name(CONTROLLER)
            .namespace(ns.name())
            .meterRegistry(registry)
            .strategies(
                new StrategySelector(
                    Map.of(strategy.name(), strategy), StrategySelection.all(strategy.name())))
            .controller(
                ControllerBuilder.forPrimary(ServiceAccount.class)
                    .named(CONTROLLER)
                    .owns(ConfigMap.class)
                    .pruneOwned()
                    .build(OwnedChildrenPruningIT::reconcile))
            // another controller, owning and pruning the same kind for primaries of its own
            .controller(
                ControllerBuilder.forPrimary(Secret.class)
                    .named("secrets")
                    .owns(ConfigMap.class)
                    .pruneOwned()
                    .build(
                        (secret, context) -> {
                          context.apply(
                              configMap(secret, secret.getMetadata().getName() + "-cm", "0"));
                          return Result.done();
                        }))
            .build();
    operator.start();
    assertThat(operator.awaitCachesSynced(Duration.ofSeconds(30))).isTrue();
  }

  private static ServiceAccount createPrimary(KubernetesClient client, String name, String want) {
    return client
        .resource(
            new ServiceAccountBuilder()
                .withNewMetadata()
                .withName(name)
                .addToAnnotations("test/want", want)
                .endMetadata()
                .build())
        .create();
  }

  private static void annotate(KubernetesClient client, String sa, Map<String, String> values) {
    client
        .serviceAccounts()
        .withName(sa)
        .edit(
            s -> {
              Map<String, String> annotations =
                  new HashMap<>(
                      Objects.requireNonNullElse(s.getMetadata().getAnnotations(), Map.of()));
              annotations.putAll(values);
              s.getMetadata().setAnnotations(annotations);
              return s;
            });
  }

  private static String uid(KubernetesClient client, String configMap) {
    ConfigMap live = client.configMaps().withName(configMap).get();
    return live == null ? null : live.getMetadata().getUid();
  }

  private static Map<String, String> uids(KubernetesClient client, String... names) {
    Map<String, String> uids = new HashMap<>();
    for (String name : names) {
      uids.put(name, uid(client, name));
    }
    return uids;
  }

  private double reconciles(String result) {
    Timer timer =
        registry
            .find(MicrometerControllerMetrics.RECONCILE)
            .tag("controller", CONTROLLER)
            .tag("result", result)
            .timer();
    return timer == null ? 0 : timer.count();
  }

  private double pruned() {
    Counter counter =
        registry
            .find(MicrometerControllerMetrics.PRUNED)
            .tag("controller", CONTROLLER)
            .tag("kind", "ConfigMap")
            .counter();
    return counter == null ? 0 : counter.count();
  }

  /** Sets {@code values} on {@code sa} and waits until a reconcile ends with {@code result}. */
  private void reconcileWith(
      KubernetesClient client, String sa, Map<String, String> values, String result) {
    double before = reconciles(result);
    annotate(client, sa, values);
    await("a reconcile ending " + result).atMost(CONVERGE).until(() -> reconciles(result) > before);
  }

  @Test
  void aChildDroppedFromDesiredIsDeletedOnceAndNothingElseIsTouched(
      KubernetesClient client, TestNamespace ns) {
    start(client, ns);
    ServiceAccount shop = createPrimary(client, "shop", "a,b");
    createPrimary(client, "other", "x");
    client
        .resource(new SecretBuilder().withNewMetadata().withName("gadget").endMetadata().build())
        .create();
    // no owner reference at all, and an owner reference to shop that is not a controller's
    client.resource(configMap(shop, "shop-loose", "0")).create();
    ConfigMap notControlled = configMap(shop, "shop-not-controlled", "0");
    notControlled
        .getMetadata()
        .setOwnerReferences(
            List.of(
                new OwnerReferenceBuilder()
                    .withApiVersion("v1")
                    .withKind("ServiceAccount")
                    .withName("shop")
                    .withUid(shop.getMetadata().getUid())
                    .withController(false)
                    .build()));
    client.resource(notControlled).create();
    await("children written")
        .atMost(CONVERGE)
        .until(
            () ->
                uid(client, "shop-a") != null
                    && uid(client, "shop-b") != null
                    && uid(client, "other-x") != null
                    && uid(client, "gadget-cm") != null);
    Map<String, String> before =
        uids(client, "shop-a", "other-x", "gadget-cm", "shop-loose", "shop-not-controlled");

    annotate(client, "shop", Map.of("test/want", "a"));

    await("shop-b pruned").atMost(CONVERGE).until(() -> uid(client, "shop-b") == null);
    // more reconciles of shop (a changed generation of its children), then nothing more is pruned
    reconcileWith(client, "shop", Map.of("test/gen", "1"), "success");
    await().atMost(CONVERGE).until(() -> "1".equals(data(client, "shop-a")));
    reconcileWith(client, "shop", Map.of("test/gen", "2"), "success");
    assertThat(uids(client, "shop-a", "other-x", "gadget-cm", "shop-loose", "shop-not-controlled"))
        .isEqualTo(before);
    assertThat(pruned()).isEqualTo(1.0);
  }

  private static String data(KubernetesClient client, String name) {
    ConfigMap live = client.configMaps().withName(name).get();
    return live == null || live.getData() == null ? null : live.getData().get("gen");
  }

  @Test
  void nothingIsPrunedAfterAThrownErrorARequeueOrARefusedWrite(
      KubernetesClient client, TestNamespace ns) {
    start(client, ns);
    createPrimary(client, "shop", "a,b");
    await("children written")
        .atMost(CONVERGE)
        .until(() -> uid(client, "shop-a") != null && uid(client, "shop-b") != null);
    String b = uid(client, "shop-b");

    reconcileWith(client, "shop", Map.of("test/want", "a", "test/mode", "throw"), "error");
    assertThat(uid(client, "shop-b")).isEqualTo(b);

    reconcileWith(client, "shop", Map.of("test/mode", "requeue"), "requeue");
    assertThat(uid(client, "shop-b")).isEqualTo(b);

    reconcileWith(client, "shop", Map.of("test/mode", "requeue-after"), "requeue-after");
    assertThat(uid(client, "shop-b")).isEqualTo(b);

    reconcileWith(client, "shop", Map.of("test/mode", "refused-caught"), "success");
    assertThat(uid(client, "shop-b")).isEqualTo(b);
    assertThat(pruned()).isZero();

    // the same wanted set, reconciled without failure: now it goes
    annotate(client, "shop", Map.of("test/mode", "ok"));
    await("shop-b pruned").atMost(CONVERGE).until(() -> uid(client, "shop-b") == null);
    assertThat(uid(client, "shop-a")).isNotNull();
  }

  @Test
  void theAnnotationKeepsAChildItsPrimaryNoLongerApplies(
      KubernetesClient client, TestNamespace ns) {
    start(client, ns);
    createPrimary(client, "shop", "a,b,c");
    await("children written")
        .atMost(CONVERGE)
        .until(() -> uid(client, "shop-b") != null && uid(client, "shop-c") != null);
    client
        .configMaps()
        .withName("shop-b")
        .edit(
            cm -> {
              cm.getMetadata().setAnnotations(Map.of(ControllerBuilder.PRUNE_ANNOTATION, "false"));
              return cm;
            });
    String b = uid(client, "shop-b");

    double before = reconciles("success");
    annotate(client, "shop", Map.of("test/want", "a"));

    // shop-c goes in the reconcile that would also have taken shop-b
    await("shop-c pruned, and that reconcile ended")
        .atMost(CONVERGE)
        .until(() -> uid(client, "shop-c") == null && reconciles("success") > before);
    assertThat(uid(client, "shop-b")).isEqualTo(b);
    reconcileWith(client, "shop", Map.of("test/gen", "1"), "success");
    assertThat(uid(client, "shop-b")).isEqualTo(b);
  }

  @Test
  void aDeleteRbacRefusesIsReportedAndDoneOnceGranted(
      KubernetesClient admin, TestNamespace ns, LocalCluster cluster) {
    String user = "pruning-it";
    List<PolicyRule> withoutDelete =
        new ArrayList<>(
            List.of(
                rule("serviceaccounts", "get", "list", "watch"),
                rule("serviceaccounts/finalizers", "update"),
                rule("secrets", "get", "list", "watch"),
                rule("secrets/finalizers", "update"),
                rule("events", "create", "patch"),
                rule("configmaps", "get", "list", "watch", "create", "update", "patch")));
    putRole(admin, ns, user, withoutDelete);
    admin
        .rbac()
        .roleBindings()
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName(user)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", user)
                .addNewSubject()
                .withKind("User")
                .withApiGroup("rbac.authorization.k8s.io")
                .withName(user)
                .endSubject()
                .build())
        .create();
    try (KubernetesClient asUser = cluster.clientAs(user)) {
      start(asUser, ns);
      createPrimary(admin, "shop", "a,b");
      await("children written")
          .atMost(CONVERGE)
          .until(() -> uid(admin, "shop-a") != null && uid(admin, "shop-b") != null);
      String b = uid(admin, "shop-b");

      annotate(admin, "shop", Map.of("test/want", "a"));
      await("the refused delete reported")
          .atMost(CONVERGE)
          .untilAsserted(
              () -> {
                Counter refused =
                    registry
                        .find(MicrometerControllerMetrics.ACCESS_REFUSED)
                        .tag("resource", "configmaps")
                        .tag("verb", "delete")
                        .counter();
                assertThat(refused).isNotNull();
                assertThat(refused.count()).isPositive();
                assertThat(operator.health().problems())
                    .anyMatch(p -> p.startsWith("RBAC: may not delete configmaps"));
              });
      assertThat(uid(admin, "shop-b")).isEqualTo(b);

      List<PolicyRule> withDelete = new ArrayList<>(withoutDelete);
      withDelete.add(rule("configmaps", "delete"));
      putRole(admin, ns, user, withDelete);
      annotate(admin, "shop", Map.of("test/gen", "1")); // a new event, rather than the backoff

      await("shop-b pruned once allowed")
          .atMost(CONVERGE)
          .until(() -> uid(admin, "shop-b") == null);
      assertThat(uid(admin, "shop-a")).isNotNull();
    }
  }

  private static PolicyRule rule(String resource, String... verbs) {
    return new PolicyRuleBuilder()
        .withApiGroups("")
        .withResources(resource)
        .withVerbs(Arrays.asList(verbs))
        .build();
  }

  private static void putRole(
      KubernetesClient admin, TestNamespace ns, String name, List<PolicyRule> rules) {
    admin
        .rbac()
        .roles()
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns.name())
                .endMetadata()
                .withRules(rules)
                .build())
        .fieldManager("pruning-it")
        .forceConflicts()
        .serverSideApply();
  }
}
