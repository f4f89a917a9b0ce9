package dev.converge.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Proof that the local control plane is real: each behaviour here needs a real component. */
@ExtendWith(LocalClusterExtension.class)
class ControlPlaneIT {

  @Test
  void deploymentReachesThreeReadyReplicasThroughSchedulerAndKwok(
      KubernetesClient client, LocalCluster cluster) {
    System.out.printf("local cluster start-up took %d ms%n", cluster.startupTime().toMillis());
    Map<String, String> labels = Map.of("app", "web");
    client
        .apps()
        .deployments()
        .resource(
            new DeploymentBuilder()
                .withNewMetadata()
                .withName("web")
                .endMetadata()
                .withNewSpec()
                .withReplicas(3)
                .withNewSelector()
                .withMatchLabels(labels)
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("web")
                .withImage("nginx:1.27")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build())
        .create();

    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              Deployment live = client.apps().deployments().withName("web").get();
              assertThat(live.getStatus().getReadyReplicas()).isEqualTo(3);
            });
    assertThat(client.pods().withLabels(labels).list().getItems())
        .hasSize(3)
        .allSatisfy(
            pod -> {
              assertThat(pod.getSpec().getNodeName()).isEqualTo("kwok-node-0");
              assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
            });
  }

  @Test
  void clusterIpServiceGetsAnAddressFromTheServiceRange(KubernetesClient client) {
    Service created =
        client
            .services()
            .resource(
                new ServiceBuilder()
                    .withNewMetadata()
                    .withName("web")
                    .endMetadata()
                    .withNewSpec()
                    .withSelector(Map.of("app", "web"))
                    .addNewPort()
                    .withPort(80)
                    .withNewTargetPort(8080)
                    .endPort()
                    .endSpec()
                    .build())
            .create();

    assertThat(created.getSpec().getType()).isEqualTo("ClusterIP");
    assertThat(created.getSpec().getClusterIP()).startsWith("10.0."); // 10.0.0.0/16
    assertThat(created.getSpec().getClusterIPs()).containsExactly(created.getSpec().getClusterIP());
  }

  @Test
  void deletingAnOwnerMakesTheGarbageCollectorDeleteItsDependent(KubernetesClient client) {
    ConfigMap owner =
        client
            .configMaps()
            .resource(
                new ConfigMapBuilder().withNewMetadata().withName("owner").endMetadata().build())
            .create();
    client
        .secrets()
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("dependent")
                .withOwnerReferences(
                    new OwnerReferenceBuilder()
                        .withApiVersion("v1")
                        .withKind("ConfigMap")
                        .withName("owner")
                        .withUid(owner.getMetadata().getUid())
                        .withController(true)
                        .withBlockOwnerDeletion(true)
                        .build())
                .endMetadata()
                .addToStringData("k", "v")
                .build())
        .create();

    client.configMaps().withName("owner").delete();

    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(() -> assertThat(client.secrets().withName("dependent").get()).isNull());
  }

  @Test
  void serverSideApplyReportsAConflictBetweenFieldManagersUnlessForced(KubernetesClient client) {
    client.configMaps().resource(configMap("shared", "a")).fieldManager("first").serverSideApply();

    assertThatThrownBy(
            () ->
                client
                    .configMaps()
                    .resource(configMap("shared", "b"))
                    .fieldManager("second")
                    .serverSideApply())
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409))
        .hasMessageContaining("conflict");
    assertThat(client.configMaps().withName("shared").get().getData()).containsEntry("mode", "a");

    client
        .configMaps()
        .resource(configMap("shared", "b"))
        .fieldManager("second")
        .forceConflicts()
        .serverSideApply();

    ConfigMap live = client.configMaps().withName("shared").get();
    assertThat(live.getData()).containsEntry("mode", "b");
    assertThat(live.getMetadata().getManagedFields())
        .anySatisfy(f -> assertThat(f.getManager()).isEqualTo("second"));
  }

  @Test
  void customResourceWithStatusSubresourceCountsGenerationOnlyForSpecChanges(
      KubernetesClient client, TestNamespace ns) {
    String group = "proof.converge.dev";
    CustomResourceDefinition crd =
        WidgetCrd.inGroup(group)
            .spec(
                new JSONSchemaPropsBuilder()
                    .withType("object")
                    .addToProperties(
                        "size", new JSONSchemaPropsBuilder().withType("integer").build())
                    .build())
            .status(
                new JSONSchemaPropsBuilder()
                    .withType("object")
                    .addToProperties(
                        "ready", new JSONSchemaPropsBuilder().withType("boolean").build())
                    .build())
            .build();
    client.apiextensions().v1().customResourceDefinitions().resource(crd).serverSideApply();
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(crd.getMetadata().getName())
        .waitUntilCondition(
            c ->
                c != null
                    && c.getStatus() != null
                    && c.getStatus().getConditions() != null
                    && c.getStatus().getConditions().stream()
                        .anyMatch(
                            cond ->
                                "Established".equals(cond.getType())
                                    && "True".equals(cond.getStatus())),
            60,
            java.util.concurrent.TimeUnit.SECONDS);

    ResourceDefinitionContext widgets =
        new ResourceDefinitionContext.Builder()
            .withGroup(group)
            .withVersion("v1")
            .withKind("Widget")
            .withPlural("widgets")
            .withNamespaced(true)
            .build();
    var api = client.genericKubernetesResources(widgets).inNamespace(ns.name());
    GenericKubernetesResource created =
        await()
            .atMost(Duration.ofSeconds(30))
            .ignoreExceptions()
            .until(
                () ->
                    api.resource(
                            new GenericKubernetesResourceBuilder()
                                .withApiVersion(group + "/v1")
                                .withKind("Widget")
                                .withNewMetadata()
                                .withName("w")
                                .endMetadata()
                                .addToAdditionalProperties("spec", Map.of("size", 1))
                                .build())
                        .create(),
                r -> r != null);
    assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);

    created.setAdditionalProperty("status", Map.of("ready", true));
    GenericKubernetesResource afterStatus = api.resource(created).updateStatus();
    assertThat(afterStatus.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(afterStatus.get("status", "ready").toString()).isEqualTo("true");

    afterStatus.setAdditionalProperty("spec", Map.of("size", 2));
    GenericKubernetesResource afterSpec = api.resource(afterStatus).update();
    assertThat(afterSpec.getMetadata().getGeneration()).isEqualTo(2L);
  }

  @Test
  void rbacRefusesAUserWithoutPermissionUntilARoleGrantsIt(
      KubernetesClient client, LocalCluster cluster, TestNamespace ns) {
    try (KubernetesClient jane = cluster.clientAs("jane", "developers")) {
      assertThatThrownBy(() -> jane.configMaps().inNamespace(ns.name()).list())
          .isInstanceOfSatisfying(
              KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403))
          .hasMessageContaining("jane");

      client
          .rbac()
          .roles()
          .resource(
              new RoleBuilder()
                  .withNewMetadata()
                  .withName("read-config")
                  .endMetadata()
                  .addNewRule()
                  .withApiGroups("")
                  .withResources("configmaps")
                  .withVerbs("list", "get")
                  .endRule()
                  .build())
          .create();
      client
          .rbac()
          .roleBindings()
          .resource(
              new RoleBindingBuilder()
                  .withNewMetadata()
                  .withName("jane-reads-config")
                  .endMetadata()
                  .withNewRoleRef()
                  .withApiGroup("rbac.authorization.k8s.io")
                  .withKind("Role")
                  .withName("read-config")
                  .endRoleRef()
                  .addNewSubject()
                  .withKind("User")
                  .withApiGroup("rbac.authorization.k8s.io")
                  .withName("jane")
                  .endSubject()
                  .build())
          .create();

      await()
          .atMost(Duration.ofSeconds(20))
          .ignoreExceptions()
          .untilAsserted(
              () ->
                  assertThat(jane.configMaps().inNamespace(ns.name()).list().getItems())
                      .isNotNull());
      assertThatThrownBy(() -> jane.secrets().inNamespace(ns.name()).list())
          .isInstanceOfSatisfying(
              KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
    }
  }

  @Test
  void theKubeconfigWorksForAPlainFabric8Client(LocalCluster cluster, TestNamespace ns)
      throws Exception {
    io.fabric8.kubernetes.client.Config plain =
        io.fabric8.kubernetes.client.Config.fromKubeconfig(
            java.nio.file.Files.readString(cluster.kubeconfig()));
    try (KubernetesClient client =
        new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(plain).build()) {
      assertThat(client.namespaces().withName(ns.name()).get()).isNotNull();
    }
  }

  private static ConfigMap configMap(String name, String mode) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .addToData("mode", mode)
        .build();
  }
}
