package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.operator.Operator;
import dev.converge.reconcile.ApplyOptions;
import dev.converge.reconcile.Result;
import dev.converge.schema.ApiKind;
import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategyContext;
import dev.converge.strategy.StrategyRule;
import dev.converge.strategy.StrategySelection;
import dev.converge.strategy.StrategySelector;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code Context.apply} on a real API server: every object it writes for the primary (here a
 * ServiceAccount, a built-in kind the garbage collector knows from its start, so the test need not
 * wait for its discovery of a new CRD) gets the primary as controller owner (so the garbage
 * collector deletes them with it), except the one written with {@code
 * ApplyOptions.withoutOwnerReference()}; and two Services of one operator are written by different
 * strategies, chosen by a name rule, while a ConfigMap takes the strategy its apply call names.
 * Which strategy wrote what is read from the server's managedFields: server-side apply records
 * operation {@code Apply}, a create records {@code Update}.
 */
@ExtendWith(LocalClusterExtension.class)
class ApplyOwnershipAndStrategyIT {

  private static final String FIELD_MANAGER = "apply-it";

  /** Creates what is absent, leaves what exists (a POST is recorded as operation Update). */
  static final class CreateOnly implements ResourceStrategy {
    @Override
    public String name() {
      return "create-test";
    }

    @Override
    public <R extends HasMetadata> ApplyResult<R> apply(R desired, StrategyContext context) {
      Optional<R> live = Optional.ofNullable(context.client().resource(desired).get());
      return live.map(ApplyResult::unchanged)
          .orElseGet(
              () ->
                  new ApplyResult<>(
                      ApplyOutcome.CREATED, context.client().resource(desired).create(), "POST"));
    }
  }

  /** Server-side apply as the context's field manager (operation Apply). */
  static final class ServerSideApply implements ResourceStrategy {
    @Override
    public String name() {
      return "apply-test";
    }

    @Override
    public <R extends HasMetadata> ApplyResult<R> apply(R desired, StrategyContext context) {
      R applied =
          context
              .client()
              .resource(desired)
              .fieldManager(context.fieldManager())
              .forceConflicts()
              .serverSideApply();
      return new ApplyResult<>(ApplyOutcome.UPDATED, applied, "PATCH apply");
    }
  }

  private Operator operator;

  @AfterEach
  void stop() {
    if (operator != null) {
      operator.stop();
    }
  }

  private static Service service(ServiceAccount stack, String suffix) {
    return new ServiceBuilder()
        .withNewMetadata()
        .withName(stack.getMetadata().getName() + suffix)
        .withNamespace(stack.getMetadata().getNamespace())
        .endMetadata()
        .withNewSpec()
        .addNewPort()
        .withPort(80)
        .endPort()
        .endSpec()
        .build();
  }

  private static ConfigMap configMap(ServiceAccount stack, String suffix) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(stack.getMetadata().getName() + suffix)
        .withNamespace(stack.getMetadata().getNamespace())
        .endMetadata()
        .addToData("k", "v")
        .build();
  }

  private void start(KubernetesClient client, TestNamespace ns) {
    ResourceStrategy create = new CreateOnly();
    ResourceStrategy apply = new ServerSideApply();
    StrategySelection selection =
        StrategySelection.all(create.name())
            .with(StrategyRule.byName(ApiKind.parse("v1/Service"), "*-metrics", apply.name()));
    operator =
        Operator.builder(client)
            .name("apply-it")
            .fieldManager(FIELD_MANAGER)
            .namespace(ns.name())
            .strategies(
                new StrategySelector(Map.of(create.name(), create, apply.name(), apply), selection))
            .controller(
                ControllerBuilder.forPrimary(ServiceAccount.class)
                    .owns(Service.class)
                    .owns(ConfigMap.class)
                    .build(
                        (stack, context) -> {
                          context.apply(service(stack, "-web"));
                          context.apply(service(stack, "-metrics"));
                          context.apply(
                              configMap(stack, "-settings"),
                              ApplyOptions.usingStrategy(apply.name()));
                          context.apply(
                              configMap(stack, "-shared"), ApplyOptions.withoutOwnerReference());
                          return Result.done();
                        }))
            .build();
    operator.start();
    assertThat(operator.awaitCachesSynced(Duration.ofSeconds(30))).isTrue();
  }

  private static Optional<String> operationOf(HasMetadata object, String manager) {
    List<ManagedFieldsEntry> entries = object.getMetadata().getManagedFields();
    return entries == null
        ? Optional.empty()
        : entries.stream()
            .filter(e -> manager.equals(e.getManager()))
            .map(ManagedFieldsEntry::getOperation)
            .findFirst();
  }

  @Test
  void ownedObjectsAreCollectedWithThePrimaryAndEachServiceHasTheStrategyItsRuleChose(
      KubernetesClient client, TestNamespace ns) {
    start(client, ns);
    ServiceAccount created =
        client
            .resource(
                new ServiceAccountBuilder()
                    .withNewMetadata()
                    .withName("shop")
                    .endMetadata()
                    .build())
            .create();

    await("all four objects written")
        .atMost(Duration.ofSeconds(30))
        .until(() -> client.configMaps().withName("shop-shared").get() != null);
    Service web = client.services().withName("shop-web").get();
    Service metrics = client.services().withName("shop-metrics").get();
    ConfigMap settings = client.configMaps().withName("shop-settings").get();
    ConfigMap shared = client.configMaps().withName("shop-shared").get();

    for (HasMetadata owned : List.of(web, metrics, settings)) {
      assertThat(owned.getMetadata().getOwnerReferences())
          .singleElement()
          .satisfies(
              ref -> {
                OwnerReference r = ref;
                assertThat(r.getKind()).isEqualTo("ServiceAccount");
                assertThat(r.getApiVersion()).isEqualTo("v1");
                assertThat(r.getUid()).isEqualTo(created.getMetadata().getUid());
                assertThat(r.getController()).isTrue();
                assertThat(r.getBlockOwnerDeletion()).isTrue();
              });
    }
    assertThat(shared.getMetadata().getOwnerReferences()).isNullOrEmpty();
    // Chosen per object: the name rule sent shop-metrics to server-side apply, shop-web took the
    // default create strategy; the ConfigMap's apply call named server-side apply itself.
    assertThat(operationOf(metrics, FIELD_MANAGER)).contains("Apply");
    assertThat(operationOf(settings, FIELD_MANAGER)).contains("Apply");
    assertThat(operationOf(web, FIELD_MANAGER)).isEmpty();
    assertThat(web.getMetadata().getManagedFields())
        .extracting(ManagedFieldsEntry::getOperation)
        .containsOnly("Update");

    client.resource(created).delete();
    await("garbage collector deletes what the ServiceAccount controlled")
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              assertThat(client.services().withName("shop-web").get()).isNull();
              assertThat(client.services().withName("shop-metrics").get()).isNull();
              assertThat(client.configMaps().withName("shop-settings").get()).isNull();
            });
    assertThat(client.configMaps().withName("shop-shared").get())
        .as("written without an owner reference, so it outlives the ServiceAccount")
        .isNotNull();
  }
}
