package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.metrics.MicrometerControllerMetrics;
import dev.converge.operator.Operator;
import dev.converge.reconcile.Result;
import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.CreateOnlyStrategy;
import dev.converge.strategy.StrategyContext;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The built-in {@code create-only} strategy, found through its {@code META-INF/services} entry and
 * chosen for Secrets by the operator's selection: a Secret holding a password generated anew on
 * every reconcile is created once; an edit by hand survives later reconciles (the primary's
 * annotation changed) and a restart of the operator; a deleted Secret is created again. The
 * controller prunes, so the Secret also shows that a create-only apply counts as applied. Judged
 * from the Secret read back with a plain client. A create that loses a race with another writer
 * (409 AlreadyExists) returns what the server holds and leaves it as it is.
 */
@ExtendWith(LocalClusterExtension.class)
class CreateOnlyIT {

  private static final String CONTROLLER = "create-only-it";
  private static final Duration CONVERGE = Duration.ofSeconds(60);

  private Operator operator;
  private SimpleMeterRegistry registry;

  @AfterEach
  void stop() {
    if (operator != null) {
      operator.stop();
    }
  }

  private void start(KubernetesClient client, TestNamespace ns) {
    registry = new SimpleMeterRegistry();
    operator =
        Operator.builder(client)
            .name(CONTROLLER)
            .namespace(ns.name())
            .meterRegistry(registry)
            .strategies("default=" + CreateOnlyStrategy.NAME)
            .controller(
                ControllerBuilder.forPrimary(ServiceAccount.class)
                    .named(CONTROLLER)
                    .owns(Secret.class)
                    .pruneOwned()
                    .build(
                        (sa, context) -> {
                          context.apply(
                              new SecretBuilder()
                                  .withNewMetadata()
                                  .withName(sa.getMetadata().getName() + "-password")
                                  .withNamespace(sa.getMetadata().getNamespace())
                                  .endMetadata()
                                  .addToStringData("password", UUID.randomUUID().toString())
                                  .build());
                          return Result.done();
                        }))
            .build();
    operator.start();
    assertThat(operator.awaitCachesSynced(Duration.ofSeconds(30))).isTrue();
  }

  private double successes() {
    Timer timer =
        registry
            .find(MicrometerControllerMetrics.RECONCILE)
            .tag("controller", CONTROLLER)
            .tag("result", "success")
            .timer();
    return timer == null ? 0 : timer.count();
  }

  private static String password(KubernetesClient client) {
    Secret live = client.secrets().withName("db-password").get();
    return live == null || live.getData() == null
        ? null
        : new String(
            Base64.getDecoder().decode(live.getData().get("password")), StandardCharsets.UTF_8);
  }

  private static String uid(KubernetesClient client) {
    Secret live = client.secrets().withName("db-password").get();
    return live == null ? null : live.getMetadata().getUid();
  }

  private void reconcileAfterAnnotating(KubernetesClient client, String gen) {
    double before = successes();
    client
        .serviceAccounts()
        .withName("db")
        .edit(
            sa -> {
              Map<String, String> annotations =
                  new HashMap<>(
                      Objects.requireNonNullElse(sa.getMetadata().getAnnotations(), Map.of()));
              annotations.put("test/gen", gen);
              sa.getMetadata().setAnnotations(annotations);
              return sa;
            });
    await("a reconcile after test/gen=" + gen).atMost(CONVERGE).until(() -> successes() > before);
  }

  @Test
  void aCreateThatLosesTheRaceReturnsTheObjectTheServerHolds(
      KubernetesClient client, TestNamespace ns) {
    Secret existing =
        client
            .resource(
                new SecretBuilder()
                    .withNewMetadata()
                    .withName("raced")
                    .endMetadata()
                    .addToStringData("password", "first")
                    .build())
            .create();
    // a cache that has not seen the Secret yet: the create reaches the server and gets 409
    StrategyContext staleCache =
        new StrategyContext() {
          @Override
          public KubernetesClient client() {
            return client;
          }

          @Override
          public String fieldManager() {
            return CONTROLLER;
          }

          @Override
          public <R extends HasMetadata> Optional<R> cached(
              Class<R> type, String namespace, String name) {
            return Optional.empty();
          }
        };
    Secret second =
        new SecretBuilder()
            .withNewMetadata()
            .withName("raced")
            .withNamespace(ns.name())
            .endMetadata()
            .addToStringData("password", "second")
            .build();

    ApplyResult<Secret> result = new CreateOnlyStrategy().apply(second, staleCache);

    assertThat(result.outcome()).isEqualTo(ApplyOutcome.UNCHANGED);
    assertThat(result.live().getMetadata().getUid()).isEqualTo(existing.getMetadata().getUid());
    assertThat(client.secrets().withName("raced").get().getData().get("password"))
        .isEqualTo(Base64.getEncoder().encodeToString("first".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void anEditByHandSurvivesReconcilesAndARestartAndADeletedSecretIsCreatedAgain(
      KubernetesClient client, TestNamespace ns) {
    start(client, ns);
    client
        .resource(
            new ServiceAccountBuilder().withNewMetadata().withName("db").endMetadata().build())
        .create();
    await("the password Secret created").atMost(CONVERGE).until(() -> password(client) != null);
    String first = password(client);
    assertThat(first).hasSize(36); // a UUID, as generated
    String uid = uid(client);

    reconcileAfterAnnotating(client, "1");
    assertThat(password(client)).isEqualTo(first);

    client
        .secrets()
        .withName("db-password")
        .edit(
            s -> {
              s.setData(
                  Map.of(
                      "password",
                      Base64.getEncoder()
                          .encodeToString("rotated-by-hand".getBytes(StandardCharsets.UTF_8))));
              return s;
            });
    reconcileAfterAnnotating(client, "2");
    reconcileAfterAnnotating(client, "3");
    assertThat(password(client)).isEqualTo("rotated-by-hand");
    assertThat(uid(client)).isEqualTo(uid);

    operator.stop();
    start(client, ns);
    await("the new operator's first reconcile").atMost(CONVERGE).until(() -> successes() > 0);
    reconcileAfterAnnotating(client, "4");
    assertThat(password(client)).isEqualTo("rotated-by-hand");
    assertThat(uid(client)).isEqualTo(uid);

    client.secrets().withName("db-password").delete();
    await("the Secret created again")
        .atMost(CONVERGE)
        .until(() -> uid(client) != null && !uid.equals(uid(client)));
    assertThat(password(client)).isNotEqualTo("rotated-by-hand").hasSize(36);
  }
}
