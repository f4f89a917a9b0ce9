package dev.converge.strategy.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.DirectStrategyContext;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.patch.MergePatchStrategy;
import dev.converge.strategy.ssa.ServerSideApplyStrategy;
import dev.converge.strategy.update.UpdateStrategy;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStrategyBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases where a strategy used to lose a change, write forever or have a valid change refused,
 * each run for every bundled strategy on the real API server. Every expectation is an explicit
 * value read back with a plain client; "no write" is counted on the wire.
 */
@ExtendWith(LocalClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StrategyProbeIT {

  private KubernetesClient client;
  private final WireWrites writes = new WireWrites();

  @BeforeAll
  void connect(LocalCluster cluster) {
    client =
        cluster
            .clientBuilder()
            .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("probe-writes", writes))
            .build();
  }

  @AfterAll
  void close() {
    client.close();
  }

  static Stream<ResourceStrategy> strategies() {
    return Stream.of(new UpdateStrategy(), new MergePatchStrategy(), new ServerSideApplyStrategy());
  }

  private <R extends HasMetadata> ApplyResult<R> apply(ResourceStrategy strategy, R desired) {
    return strategy.apply(desired, new DirectStrategyContext(client, "probe-operator"));
  }

  /** Applies, then applies the same object again and checks that nothing was written. */
  private <R extends HasMetadata> void applyAndSettle(ResourceStrategy strategy, R desired) {
    apply(strategy, desired);
    writes.reset();
    assertThat(apply(strategy, desired).outcome())
        .as("second apply of the same object")
        .isEqualTo(ApplyOutcome.UNCHANGED);
    assertThat(writes.writes()).as("writes of the second apply").isEmpty();
  }

  private static ConfigMap configMap(
      String ns, Map<String, String> labels, Map<String, String> data) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("cm")
        .withNamespace(ns)
        .withLabels(labels)
        .endMetadata()
        .withData(data)
        .build();
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void numberLikeStringsAreStringsAndEmptyValuesAreValues(
      ResourceStrategy strategy, TestNamespace ns) {
    applyAndSettle(
        strategy, configMap(ns.name(), Map.of("app", "a"), Map.of("v", "1.1", "w", "010")));
    applyAndSettle(
        strategy,
        configMap(
            ns.name(),
            Map.of("app", "a", "empty", ""),
            Map.of("v", "1.10", "w", "10", "blank", "")));
    ConfigMap live = client.configMaps().inNamespace(ns.name()).withName("cm").get();
    assertThat(live.getData()).isEqualTo(Map.of("v", "1.10", "w", "10", "blank", ""));
    assertThat(live.getMetadata().getLabels()).isEqualTo(Map.of("app", "a", "empty", ""));
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void droppedKeysLabelsAndForeignFinalizers(ResourceStrategy strategy, TestNamespace ns) {
    applyAndSettle(
        strategy,
        configMap(ns.name(), Map.of("app", "a", "tier", "x"), Map.of("a", "1", "b", "2")));
    client
        .configMaps()
        .inNamespace(ns.name())
        .withName("cm")
        .edit(
            cm -> {
              cm.getMetadata().getFinalizers().add("other.example.com/keep");
              cm.getMetadata().getLabels().put("theirs", "y");
              return cm;
            });
    writes.reset();
    assertThat(
            apply(
                    strategy,
                    configMap(
                        ns.name(), Map.of("app", "a", "tier", "x"), Map.of("a", "1", "b", "2")))
                .outcome())
        .isEqualTo(ApplyOutcome.UNCHANGED);
    assertThat(writes.writes()).isEmpty();
    applyAndSettle(strategy, configMap(ns.name(), Map.of("app", "a"), Map.of("a", "1")));
    ConfigMap live = client.configMaps().inNamespace(ns.name()).withName("cm").get();
    assertThat(live.getData()).isEqualTo(Map.of("a", "1"));
    assertThat(live.getMetadata().getLabels()).isEqualTo(Map.of("app", "a", "theirs", "y"));
    assertThat(live.getMetadata().getFinalizers()).containsExactly("other.example.com/keep");
    client
        .configMaps()
        .inNamespace(ns.name())
        .withName("cm")
        .edit(
            cm -> {
              cm.getMetadata().getFinalizers().clear();
              return cm;
            });
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aHugeConfigMapIsWrittenAndChanged(ResourceStrategy strategy, TestNamespace ns) {
    Random random = new Random(42);
    Map<String, String> data = new LinkedHashMap<>();
    for (int i = 0; i < 6000; i++) {
      StringBuilder key = new StringBuilder();
      for (int c = 0; c < 40; c++) {
        key.append((char) ('a' + random.nextInt(26)));
      }
      data.put(key.toString(), "v");
    }
    applyAndSettle(strategy, configMap(ns.name(), Map.of(), data));
    String dropped = data.keySet().iterator().next();
    data.remove(dropped);
    data.put("added", "new");
    applyAndSettle(strategy, configMap(ns.name(), Map.of(), data));
    ConfigMap live = client.configMaps().inNamespace(ns.name()).withName("cm").get();
    assertThat(live.getData())
        .hasSize(6000)
        .containsEntry("added", "new")
        .doesNotContainKey(dropped);
  }

  private static Service service(String ns, Map<String, String> selector, String clusterIp) {
    return new ServiceBuilder()
        .withNewMetadata()
        .withName("svc")
        .withNamespace(ns)
        .endMetadata()
        .withNewSpec()
        .withSelector(selector)
        .withClusterIP(clusterIp)
        .addNewPort()
        .withName("http")
        .withPort(80)
        .endPort()
        .endSpec()
        .build();
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aServiceSelectorIsReplacedWholeAndAnEmptyClusterIpIsLeftToTheServer(
      ResourceStrategy strategy, TestNamespace ns) {
    applyAndSettle(strategy, service(ns.name(), Map.of("app", "web", "version", "v1"), ""));
    applyAndSettle(strategy, service(ns.name(), Map.of("app", "web"), ""));
    Service live = client.services().inNamespace(ns.name()).withName("svc").get();
    assertThat(live.getSpec().getSelector()).isEqualTo(Map.of("app", "web"));
    assertThat(live.getSpec().getClusterIP()).isNotBlank();
  }

  private static Deployment deployment(
      String ns, UnaryOperator<Container> container, UnaryOperator<DeploymentBuilder> more) {
    Container web =
        container.apply(
            new io.fabric8.kubernetes.api.model.ContainerBuilder()
                .withName("web")
                .withImage("nginx:1.27")
                .build());
    DeploymentBuilder builder =
        new DeploymentBuilder()
            .withNewMetadata()
            .withName("web")
            .withNamespace(ns)
            .endMetadata()
            .withNewSpec()
            .withReplicas(1)
            .withNewSelector()
            .addToMatchLabels("app", "web")
            .endSelector()
            .withNewTemplate()
            .withNewMetadata()
            .addToLabels("app", "web")
            .endMetadata()
            .withNewSpec()
            .withContainers(web)
            .endSpec()
            .endTemplate()
            .endSpec();
    return more.apply(builder).build();
  }

  private Deployment liveDeployment(TestNamespace ns) {
    return client.apps().deployments().inNamespace(ns.name()).withName("web").get();
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aDroppedProbeAndDroppedLimitsGo(ResourceStrategy strategy, TestNamespace ns) {
    applyAndSettle(
        strategy,
        deployment(
            ns.name(),
            c -> {
              c.setLivenessProbe(
                  new io.fabric8.kubernetes.api.model.ProbeBuilder()
                      .withNewHttpGet()
                      .withPath("/healthz")
                      .withNewPort(8080)
                      .endHttpGet()
                      .build());
              c.setResources(
                  new io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder()
                      .addToLimits("cpu", new io.fabric8.kubernetes.api.model.Quantity("1"))
                      .addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("500m"))
                      .build());
              return c;
            },
            d -> d));
    applyAndSettle(
        strategy,
        deployment(
            ns.name(),
            c -> {
              c.setResources(
                  new io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder()
                      .addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("0.5"))
                      .build());
              return c;
            },
            d -> d));
    Container live = liveDeployment(ns).getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(live.getLivenessProbe()).isNull();
    assertThat(live.getResources().getLimits()).isNullOrEmpty();
    assertThat(live.getResources().getRequests()).containsOnlyKeys("cpu");
    assertThat(live.getResources().getRequests().get("cpu").toString()).isEqualTo("500m");
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void rollingUpdateToRecreateWithDefaultedAndWithDesiredParameters(
      ResourceStrategy strategy, TestNamespace ns) {
    applyAndSettle(strategy, deployment(ns.name(), c -> c, d -> d));
    assertThat(liveDeployment(ns).getSpec().getStrategy().getRollingUpdate()).isNotNull();
    applyAndSettle(
        strategy,
        deployment(
            ns.name(),
            c -> c,
            d ->
                d.editSpec()
                    .withStrategy(new DeploymentStrategyBuilder().withType("Recreate").build())
                    .endSpec()));
    assertThat(liveDeployment(ns).getSpec().getStrategy().getType()).isEqualTo("Recreate");
    assertThat(liveDeployment(ns).getSpec().getStrategy().getRollingUpdate()).isNull();
    applyAndSettle(
        strategy,
        deployment(
            ns.name(),
            c -> c,
            d ->
                d.editSpec()
                    .withStrategy(
                        new DeploymentStrategyBuilder()
                            .withType("RollingUpdate")
                            .withNewRollingUpdate()
                            .withNewMaxSurge(2)
                            .withNewMaxUnavailable(0)
                            .endRollingUpdate()
                            .build())
                    .endSpec()));
    assertThat(
            liveDeployment(ns).getSpec().getStrategy().getRollingUpdate().getMaxSurge().getIntVal())
        .isEqualTo(2);
    applyAndSettle(
        strategy,
        deployment(
            ns.name(),
            c -> c,
            d ->
                d.editSpec()
                    .withStrategy(new DeploymentStrategyBuilder().withType("Recreate").build())
                    .endSpec()));
    assertThat(liveDeployment(ns).getSpec().getStrategy().getType()).isEqualTo("Recreate");
    assertThat(liveDeployment(ns).getSpec().getStrategy().getRollingUpdate()).isNull();
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void oneOfMembersSwitchUnderTheSameName(ResourceStrategy strategy, TestNamespace ns) {
    applyAndSettle(
        strategy,
        deployment(
            ns.name(),
            c -> {
              c.setEnv(
                  List.of(
                      new io.fabric8.kubernetes.api.model.EnvVarBuilder()
                          .withName("MODE")
                          .withValue("a")
                          .build()));
              c.setVolumeMounts(
                  List.of(
                      new io.fabric8.kubernetes.api.model.VolumeMountBuilder()
                          .withName("conf")
                          .withMountPath("/etc/conf")
                          .build()));
              return c;
            },
            d ->
                d.editSpec()
                    .editTemplate()
                    .editSpec()
                    .addNewVolume()
                    .withName("conf")
                    .withNewConfigMap()
                    .withName("settings")
                    .endConfigMap()
                    .endVolume()
                    .endSpec()
                    .endTemplate()
                    .endSpec()));
    applyAndSettle(
        strategy,
        deployment(
            ns.name(),
            c -> {
              c.setEnv(
                  List.of(
                      new io.fabric8.kubernetes.api.model.EnvVarBuilder()
                          .withName("MODE")
                          .withNewValueFrom()
                          .withNewSecretKeyRef()
                          .withName("creds")
                          .withKey("mode")
                          .endSecretKeyRef()
                          .endValueFrom()
                          .build()));
              c.setVolumeMounts(
                  List.of(
                      new io.fabric8.kubernetes.api.model.VolumeMountBuilder()
                          .withName("conf")
                          .withMountPath("/etc/conf")
                          .build()));
              return c;
            },
            d ->
                d.editSpec()
                    .editTemplate()
                    .editSpec()
                    .addNewVolume()
                    .withName("conf")
                    .withNewSecret()
                    .withSecretName("settings")
                    .endSecret()
                    .endVolume()
                    .endSpec()
                    .endTemplate()
                    .endSpec()));
    var spec = liveDeployment(ns).getSpec().getTemplate().getSpec();
    assertThat(spec.getContainers().get(0).getEnv()).hasSize(1);
    assertThat(spec.getContainers().get(0).getEnv().get(0).getValue()).isNull();
    assertThat(
            spec.getContainers().get(0).getEnv().get(0).getValueFrom().getSecretKeyRef().getName())
        .isEqualTo("creds");
    assertThat(spec.getVolumes()).hasSize(1);
    assertThat(spec.getVolumes().get(0).getConfigMap()).isNull();
    assertThat(spec.getVolumes().get(0).getSecret().getSecretName()).isEqualTo("settings");
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void tolerationsWithTheSameKeyInTheOtherOrder(ResourceStrategy strategy, TestNamespace ns) {
    Toleration exists =
        new TolerationBuilder()
            .withKey("dedicated")
            .withOperator("Exists")
            .withEffect("NoSchedule")
            .build();
    Toleration equal =
        new TolerationBuilder()
            .withKey("dedicated")
            .withOperator("Equal")
            .withValue("db")
            .withEffect("NoExecute")
            .build();
    applyAndSettle(
        strategy,
        deployment(
            ns.name(),
            c -> c,
            d ->
                d.editSpec()
                    .editTemplate()
                    .editSpec()
                    .withTolerations(exists, equal)
                    .endSpec()
                    .endTemplate()
                    .endSpec()));
    applyAndSettle(
        strategy,
        deployment(
            ns.name(),
            c -> c,
            d ->
                d.editSpec()
                    .editTemplate()
                    .editSpec()
                    .withTolerations(equal, exists)
                    .endSpec()
                    .endTemplate()
                    .endSpec()));
    assertThat(liveDeployment(ns).getSpec().getTemplate().getSpec().getTolerations())
        .containsExactly(equal, exists);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void anotherControllersChangeToAFieldThisOneSetsIsUndone(
      ResourceStrategy strategy, TestNamespace ns) {
    applyAndSettle(strategy, deployment(ns.name(), c -> c, d -> d));
    PatchContext merge = PatchContext.of(PatchType.JSON_MERGE);
    client
        .apps()
        .deployments()
        .inNamespace(ns.name())
        .withName("web")
        .patch(merge, "{\"spec\":{\"replicas\":5}}");
    assertThat(apply(strategy, deployment(ns.name(), c -> c, d -> d)).outcome())
        .isEqualTo(ApplyOutcome.UPDATED);
    assertThat(liveDeployment(ns).getSpec().getReplicas()).isEqualTo(1);
  }

  /** Another controller tunes the probe through a strategic merge patch under its own manager. */
  private void tuneProbe(TestNamespace ns, String probe) {
    PatchContext strategic = PatchContext.of(PatchType.STRATEGIC_MERGE);
    strategic.setFieldManager("probe-tuner");
    client
        .apps()
        .deployments()
        .inNamespace(ns.name())
        .withName("web")
        .patch(
            strategic,
            "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"web\",\"livenessProbe\":"
                + probe
                + "}]}}}}");
  }

  private static io.fabric8.kubernetes.api.model.Probe httpProbe() {
    return new io.fabric8.kubernetes.api.model.ProbeBuilder()
        .withNewHttpGet()
        .withPath("/healthz")
        .withNewPort(8080)
        .endHttpGet()
        .withPeriodSeconds(10)
        .build();
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aProbeAnotherWriterTunedGoesWhenDesiredDropsIt(ResourceStrategy strategy, TestNamespace ns) {
    applyAndSettle(
        strategy,
        deployment(
            ns.name(),
            c -> {
              c.setLivenessProbe(httpProbe());
              return c;
            },
            d -> d));
    tuneProbe(ns, "{\"periodSeconds\":30,\"httpGet\":{\"path\":\"/ready\"}}");
    assertThat(
            liveDeployment(ns)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getLivenessProbe()
                .getPeriodSeconds())
        .isEqualTo(30);
    applyAndSettle(strategy, deployment(ns.name(), c -> c, d -> d));
    assertThat(
            liveDeployment(ns)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getLivenessProbe())
        .isNull();
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aProbeHandlerSwitchesAfterAnotherWriterTunedTheOldOne(
      ResourceStrategy strategy, TestNamespace ns) {
    applyAndSettle(
        strategy,
        deployment(
            ns.name(),
            c -> {
              c.setLivenessProbe(httpProbe());
              return c;
            },
            d -> d));
    tuneProbe(ns, "{\"httpGet\":{\"path\":\"/ready\"}}");
    applyAndSettle(
        strategy,
        deployment(
            ns.name(),
            c -> {
              c.setLivenessProbe(
                  new io.fabric8.kubernetes.api.model.ProbeBuilder()
                      .withNewExec()
                      .withCommand("cat", "/tmp/healthy")
                      .endExec()
                      .withPeriodSeconds(10)
                      .build());
              return c;
            },
            d -> d));
    var probe =
        liveDeployment(ns)
            .getSpec()
            .getTemplate()
            .getSpec()
            .getContainers()
            .get(0)
            .getLivenessProbe();
    assertThat(probe.getHttpGet()).isNull();
    assertThat(probe.getExec().getCommand()).containsExactly("cat", "/tmp/healthy");
    assertThat(probe.getPeriodSeconds()).isEqualTo(10);
  }

  private static io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler autoscaler(
      String ns, boolean policies) {
    var scaleDown =
        new io.fabric8.kubernetes.api.model.autoscaling.v2.HPAScalingRulesBuilder()
            .withStabilizationWindowSeconds(300);
    if (policies) {
      scaleDown.addNewPolicy().withType("Percent").withValue(50).withPeriodSeconds(60).endPolicy();
    }
    return new io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder()
        .withNewMetadata()
        .withName("web")
        .withNamespace(ns)
        .endMetadata()
        .withNewSpec()
        .withNewScaleTargetRef()
        .withApiVersion("apps/v1")
        .withKind("Deployment")
        .withName("web")
        .endScaleTargetRef()
        .withMinReplicas(2)
        .withMaxReplicas(10)
        .withNewBehavior()
        .withScaleDown(scaleDown.build())
        .endBehavior()
        .endSpec()
        .build();
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aListAnotherWriterChangedAndTheServerDefaultsAgainSettles(
      ResourceStrategy strategy, TestNamespace ns) {
    applyAndSettle(strategy, autoscaler(ns.name(), true));
    PatchContext json = PatchContext.of(PatchType.JSON);
    json.setFieldManager("policy-tuner");
    client
        .autoscaling()
        .v2()
        .horizontalPodAutoscalers()
        .inNamespace(ns.name())
        .withName("web")
        .patch(
            json,
            "[{\"op\":\"replace\",\"path\":\"/spec/behavior/scaleDown/policies/0/value\",\"value\":53}]");
    applyAndSettle(strategy, autoscaler(ns.name(), false));
    var scaleDown =
        client
            .autoscaling()
            .v2()
            .horizontalPodAutoscalers()
            .inNamespace(ns.name())
            .withName("web")
            .get()
            .getSpec()
            .getBehavior()
            .getScaleDown();
    // The policies are the tuner's now (its update owns the atomic list): they stay, as the
    // server's own apply keeps a field another manager owns; the rest of what desired dropped
    // settles to the server's defaults.
    assertThat(scaleDown.getPolicies()).hasSize(1);
    assertThat(scaleDown.getPolicies().get(0).getValue()).isEqualTo(53);
    assertThat(scaleDown.getStabilizationWindowSeconds()).isEqualTo(300);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void anExternalNameServiceAnotherWriterRetargetedBecomesClusterIp(
      ResourceStrategy strategy, TestNamespace ns) {
    applyAndSettle(
        strategy,
        new ServiceBuilder()
            .withNewMetadata()
            .withName("db")
            .withNamespace(ns.name())
            .endMetadata()
            .withNewSpec()
            .withType("ExternalName")
            .withExternalName("db.example.com")
            .endSpec()
            .build());
    PatchContext merge = PatchContext.of(PatchType.JSON_MERGE);
    merge.setFieldManager("dns-tuner");
    client
        .services()
        .inNamespace(ns.name())
        .withName("db")
        .patch(merge, "{\"spec\":{\"externalName\":\"db2.example.com\"}}");
    applyAndSettle(
        strategy,
        new ServiceBuilder()
            .withNewMetadata()
            .withName("db")
            .withNamespace(ns.name())
            .endMetadata()
            .withNewSpec()
            .addNewPort()
            .withPort(5432)
            .endPort()
            .endSpec()
            .build());
    Service live = client.services().inNamespace(ns.name()).withName("db").get();
    assertThat(live.getSpec().getType()).isEqualTo("ClusterIP");
    // externalName is the tuner's (its update owns it): it stays, as the server's own apply keeps
    // it, and a ClusterIP Service ignores it.
    assertThat(live.getSpec().getExternalName()).isEqualTo("db2.example.com");
    assertThat(live.getSpec().getClusterIP()).isNotBlank();
    assertThat(live.getSpec().getPorts()).hasSize(1);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void defaultsTheServerFillsIntoValuesReplacedWholeSettle(
      ResourceStrategy strategy, TestNamespace ns) {
    // NetworkPolicy ports, RoleBinding subjects and LimitRange items are atomic lists; the server
    // fills a protocol, an apiGroup and a limit range's defaults into them.
    applyAndSettle(
        strategy,
        new io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder()
            .withNewMetadata()
            .withName("np")
            .withNamespace(ns.name())
            .endMetadata()
            .withNewSpec()
            .withNewPodSelector()
            .addToMatchLabels("app", "web")
            .endPodSelector()
            .addNewEgress()
            .addNewPort()
            .withNewPort(53)
            .endPort()
            .endEgress()
            .endSpec()
            .build());
    applyAndSettle(
        strategy,
        new io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder()
            .withNewMetadata()
            .withName("rb")
            .withNamespace(ns.name())
            .endMetadata()
            .withNewRoleRef()
            .withApiGroup("rbac.authorization.k8s.io")
            .withKind("ClusterRole")
            .withName("view")
            .endRoleRef()
            .addNewSubject()
            .withKind("User")
            .withName("alice")
            .endSubject()
            .build());
    applyAndSettle(
        strategy,
        new io.fabric8.kubernetes.api.model.LimitRangeBuilder()
            .withNewMetadata()
            .withName("lr")
            .withNamespace(ns.name())
            .endMetadata()
            .withNewSpec()
            .addNewLimit()
            .withType("Container")
            .addToDefault("memory", new io.fabric8.kubernetes.api.model.Quantity("256Mi"))
            .addToMax("cpu", new io.fabric8.kubernetes.api.model.Quantity("2"))
            .endLimit()
            .endSpec()
            .build());
    // once learned (one dry run per object and desired value), a steady state sends nothing at all
    writes.reset();
    assertThat(
            apply(
                    strategy,
                    new io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder()
                        .withNewMetadata()
                        .withName("np")
                        .withNamespace(ns.name())
                        .endMetadata()
                        .withNewSpec()
                        .withNewPodSelector()
                        .addToMatchLabels("app", "web")
                        .endPodSelector()
                        .addNewEgress()
                        .addNewPort()
                        .withNewPort(53)
                        .endPort()
                        .endEgress()
                        .endSpec()
                        .build())
                .outcome())
        .isEqualTo(ApplyOutcome.UNCHANGED);
    assertThat(writes.writes()).isEmpty();
    assertThat(writes.dryRuns()).isEmpty();
    assertThat(
            client
                .network()
                .v1()
                .networkPolicies()
                .inNamespace(ns.name())
                .withName("np")
                .get()
                .getSpec()
                .getEgress()
                .get(0)
                .getPorts()
                .get(0)
                .getProtocol())
        .isEqualTo("TCP");
    assertThat(
            client
                .rbac()
                .roleBindings()
                .inNamespace(ns.name())
                .withName("rb")
                .get()
                .getSubjects()
                .get(0)
                .getApiGroup())
        .isEqualTo("rbac.authorization.k8s.io");
    assertThat(
            client
                .limitRanges()
                .inNamespace(ns.name())
                .withName("lr")
                .get()
                .getSpec()
                .getLimits()
                .get(0)
                .getDefault()
                .get("cpu")
                .toString())
        .isEqualTo("2");
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aStructDesiredEmptiesTakesTheServersDefaultsAndSettles(
      ResourceStrategy strategy, TestNamespace ns) {
    java.util.function.Function<
            io.fabric8.kubernetes.api.model.apps.DaemonSetUpdateStrategy,
            io.fabric8.kubernetes.api.model.apps.DaemonSet>
        daemonSet =
            update ->
                new io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder()
                    .withNewMetadata()
                    .withName("agent")
                    .withNamespace(ns.name())
                    .endMetadata()
                    .withNewSpec()
                    .withNewSelector()
                    .addToMatchLabels("app", "agent")
                    .endSelector()
                    .withUpdateStrategy(update)
                    .withNewTemplate()
                    .withNewMetadata()
                    .addToLabels("app", "agent")
                    .endMetadata()
                    .withNewSpec()
                    .addNewContainer()
                    .withName("agent")
                    .withImage("agent:1")
                    .endContainer()
                    .endSpec()
                    .endTemplate()
                    .endSpec()
                    .build();
    applyAndSettle(
        strategy,
        daemonSet.apply(
            new io.fabric8.kubernetes.api.model.apps.DaemonSetUpdateStrategyBuilder()
                .withType("OnDelete")
                .build()));
    applyAndSettle(
        strategy,
        daemonSet.apply(new io.fabric8.kubernetes.api.model.apps.DaemonSetUpdateStrategy()));
    var live =
        client
            .apps()
            .daemonSets()
            .inNamespace(ns.name())
            .withName("agent")
            .get()
            .getSpec()
            .getUpdateStrategy();
    assertThat(live.getType()).isEqualTo("RollingUpdate");
    assertThat(live.getRollingUpdate().getMaxUnavailable().getIntVal()).isEqualTo(1);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aDroppedStructTheServerDefaultsAgainSettles(ResourceStrategy strategy, TestNamespace ns) {
    var withBoth = autoscaler(ns.name(), true);
    withBoth
        .getSpec()
        .getBehavior()
        .setScaleUp(
            new io.fabric8.kubernetes.api.model.autoscaling.v2.HPAScalingRulesBuilder()
                .withStabilizationWindowSeconds(30)
                .build());
    applyAndSettle(strategy, withBoth);
    var scaleUpOnly = autoscaler(ns.name(), true);
    scaleUpOnly.getSpec().getBehavior().setScaleUp(withBoth.getSpec().getBehavior().getScaleUp());
    scaleUpOnly.getSpec().getBehavior().setScaleDown(null);
    applyAndSettle(strategy, scaleUpOnly);
    var scaleDown =
        client
            .autoscaling()
            .v2()
            .horizontalPodAutoscalers()
            .inNamespace(ns.name())
            .withName("web")
            .get()
            .getSpec()
            .getBehavior()
            .getScaleDown();
    // the server's scale-down default (100 percent per 15 s), not the policy desired no longer sets
    assertThat(scaleDown.getPolicies()).hasSize(1);
    assertThat(scaleDown.getPolicies().get(0).getValue()).isEqualTo(100);
    assertThat(scaleDown.getPolicies().get(0).getPeriodSeconds()).isEqualTo(15);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aStructDroppedUntilItsParentIsEmptySettles(ResourceStrategy strategy, TestNamespace ns) {
    applyAndSettle(strategy, autoscaler(ns.name(), true));
    var emptied = autoscaler(ns.name(), true);
    emptied.getSpec().getBehavior().setScaleDown(null);
    applyAndSettle(strategy, emptied);
    var scaleDown =
        client
            .autoscaling()
            .v2()
            .horizontalPodAutoscalers()
            .inNamespace(ns.name())
            .withName("web")
            .get()
            .getSpec()
            .getBehavior()
            .getScaleDown();
    assertThat(scaleDown.getPolicies()).hasSize(1);
    assertThat(scaleDown.getPolicies().get(0).getValue()).isEqualTo(100);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void metricsDroppedAfterAnotherWriterChangedTheAutoscalerGo(
      ResourceStrategy strategy, TestNamespace ns) {
    var metrics =
        List.of(
            new io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpecBuilder()
                .withType("Resource")
                .withNewResource()
                .withName("memory")
                .withNewTarget()
                .withType("Utilization")
                .withAverageUtilization(60)
                .endTarget()
                .endResource()
                .build());
    var first = autoscaler(ns.name(), true);
    first.getSpec().setMetrics(metrics);
    applyAndSettle(strategy, first);
    // kube-apiserver credits another writer's update of an autoscaler with spec.metrics too
    PatchContext merge = PatchContext.of(PatchType.JSON_MERGE);
    merge.setFieldManager("scaler-tuner");
    client
        .autoscaling()
        .v2()
        .horizontalPodAutoscalers()
        .inNamespace(ns.name())
        .withName("web")
        .patch(merge, "{\"spec\":{\"minReplicas\":5}}");
    var second = autoscaler(ns.name(), true);
    second.getSpec().setMetrics(metrics);
    second.getSpec().setMinReplicas(null);
    applyAndSettle(strategy, second);
    var third = autoscaler(ns.name(), true);
    third.getSpec().setMinReplicas(null);
    applyAndSettle(strategy, third);
    var live =
        client
            .autoscaling()
            .v2()
            .horizontalPodAutoscalers()
            .inNamespace(ns.name())
            .withName("web")
            .get()
            .getSpec()
            .getMetrics();
    // the server's default when an autoscaler names no metric: 80 percent of cpu
    assertThat(live).hasSize(1);
    assertThat(live.get(0).getResource().getName()).isEqualTo("cpu");
    assertThat(live.get(0).getResource().getTarget().getAverageUtilization()).isEqualTo(80);
  }
}
