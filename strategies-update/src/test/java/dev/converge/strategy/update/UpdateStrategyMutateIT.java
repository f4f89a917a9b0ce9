package dev.converge.strategy.update;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.DirectStrategyContext;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import dev.converge.testing.conformance.WriteCounter;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServiceSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentSpecBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * controller-runtime's CreateOrUpdate style: a callback that overwrites whole sub-objects of the
 * live object (a new spec without any server default) must neither write on every call nor lose
 * what the server allocated.
 */
@ExtendWith(LocalClusterExtension.class)
class UpdateStrategyMutateIT {

  private final WriteCounter writes = new WriteCounter();
  private KubernetesClient counted;
  private DirectStrategyContext context;
  private final UpdateStrategy strategy = new UpdateStrategy();

  @BeforeEach
  void countedClient(LocalCluster cluster) {
    counted =
        cluster
            .clientBuilder()
            .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("writes", writes))
            .build();
    context = new DirectStrategyContext(counted, "mutate-it");
  }

  @AfterEach
  void close() {
    counted.close();
  }

  private static Consumer<Deployment> redis(int size) {
    return dep -> {
      Map<String, String> labels = Map.of("app", "redis");
      dep.getMetadata().setLabels(labels);
      dep.setSpec(
          new DeploymentSpecBuilder()
              .withReplicas(size)
              .withNewSelector()
              .withMatchLabels(labels)
              .endSelector()
              .withNewTemplate()
              .withNewMetadata()
              .withLabels(labels)
              .endMetadata()
              .withNewSpec()
              .addNewContainer()
              .withName("redis")
              .withImage("redis:7")
              .endContainer()
              .endSpec()
              .endTemplate()
              .build());
    };
  }

  @Test
  void aCallbackThatReplacesTheWholeSpecWritesOnlyWhenItsValuesChange(
      TestNamespace ns, KubernetesClient admin) {
    Deployment key =
        new DeploymentBuilder()
            .withNewMetadata()
            .withName("redis")
            .withNamespace(ns.name())
            .endMetadata()
            .build();

    assertThat(strategy.createOrUpdate(key, redis(1), context).outcome())
        .isEqualTo(ApplyOutcome.CREATED);
    long generation =
        admin
            .apps()
            .deployments()
            .inNamespace(ns.name())
            .withName("redis")
            .get()
            .getMetadata()
            .getGeneration();

    writes.reset();
    ApplyResult<Deployment> again = strategy.createOrUpdate(key, redis(1), context);
    assertThat(again.outcome()).isEqualTo(ApplyOutcome.UNCHANGED);
    assertThat(writes.writes()).isEmpty();

    writes.reset();
    ApplyResult<Deployment> resized = strategy.createOrUpdate(key, redis(3), context);
    assertThat(resized.outcome()).isEqualTo(ApplyOutcome.UPDATED);
    Deployment live = admin.apps().deployments().inNamespace(ns.name()).withName("redis").get();
    assertThat(live.getSpec().getReplicas()).isEqualTo(3);
    assertThat(live.getMetadata().getGeneration()).isEqualTo(generation + 1);
    // the server's defaults inside the template survived the PUT
    assertThat(
            live.getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getTerminationMessagePath())
        .isEqualTo("/dev/termination-log");
  }

  @Test
  void aServiceSpecRebuiltByTheCallbackKeepsItsClusterIpAndNodePort(
      TestNamespace ns, KubernetesClient admin) {
    Service key =
        new ServiceBuilder()
            .withNewMetadata()
            .withName("web")
            .withNamespace(ns.name())
            .endMetadata()
            .build();
    Consumer<Service> web8080 = svc -> svc.setSpec(web(8080));
    Consumer<Service> web8081 = svc -> svc.setSpec(web(8081));

    strategy.createOrUpdate(key, web8080, context);
    Service created = admin.services().inNamespace(ns.name()).withName("web").get();
    String clusterIp = created.getSpec().getClusterIP();
    Integer nodePort = created.getSpec().getPorts().get(0).getNodePort();

    ApplyResult<Service> changed = strategy.createOrUpdate(key, web8081, context);
    writes.reset();
    ApplyResult<Service> same = strategy.createOrUpdate(key, web8081, context);

    Service live = admin.services().inNamespace(ns.name()).withName("web").get();
    assertThat(changed.outcome()).isEqualTo(ApplyOutcome.UPDATED);
    assertThat(live.getSpec().getPorts().get(0).getTargetPort()).isEqualTo(new IntOrString(8081));
    assertThat(live.getSpec().getClusterIP()).isEqualTo(clusterIp);
    assertThat(live.getSpec().getPorts().get(0).getNodePort()).isEqualTo(nodePort);
    assertThat(same.outcome()).isEqualTo(ApplyOutcome.UNCHANGED);
    assertThat(writes.writes()).isEmpty();
  }

  private static io.fabric8.kubernetes.api.model.ServiceSpec web(int targetPort) {
    return new ServiceSpecBuilder()
        .withType("NodePort")
        .withSelector(Map.of("app", "web"))
        .addNewPort()
        .withName("http")
        .withPort(80)
        .withTargetPort(new IntOrString(targetPort))
        .endPort()
        .build();
  }
}
