package dev.converge.strategy.ssa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.DirectStrategyContext;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import dev.converge.testing.conformance.WriteCounter;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Server-side apply merges keyed lists (containers, env, ports) element by element, so an element
 * another actor adds to such a list is theirs: it must survive this controller's applies and must
 * not make every reconcile send an apply.
 */
@ExtendWith(LocalClusterExtension.class)
class ServerSideApplySharedListIT {

  private static Deployment desired(String ns, int replicas) {
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName("web")
        .withNamespace(ns)
        .endMetadata()
        .withNewSpec()
        .withReplicas(replicas)
        .withNewSelector()
        .addToMatchLabels("app", "web")
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .addToLabels("app", "web")
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("web")
        .withImage("nginx:1.27")
        .addNewEnv()
        .withName("MODE")
        .withValue("a")
        .endEnv()
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  @Test
  void anEnvVarAddedByAnotherActorIsKeptAndCausesNoWrites(
      LocalCluster cluster, KubernetesClient admin, TestNamespace ns) {
    WriteCounter writes = new WriteCounter();
    try (KubernetesClient counted =
        cluster
            .clientBuilder()
            .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("writes", writes))
            .build()) {
      ServerSideApplyStrategy ssa = new ServerSideApplyStrategy();
      DirectStrategyContext context = new DirectStrategyContext(counted, "my-operator");
      ssa.apply(desired(ns.name(), 1), context);

      PatchContext strategic = PatchContext.of(PatchType.STRATEGIC_MERGE);
      strategic.setFieldManager("env-injector");
      admin
          .apps()
          .deployments()
          .inNamespace(ns.name())
          .withName("web")
          .patch(
              strategic,
              """
          {"spec":{"template":{"spec":{"containers":[{"name":"web","env":[{"name":"INJECTED","value":"yes"}]}]}}}}""");

      writes.reset();
      assertThat(ssa.apply(desired(ns.name(), 1), context).outcome())
          .isEqualTo(ApplyOutcome.UNCHANGED);
      assertThat(writes.writes()).isEmpty();

      assertThat(ssa.apply(desired(ns.name(), 2), context).outcome())
          .isEqualTo(ApplyOutcome.UPDATED);
      Deployment live = admin.apps().deployments().inNamespace(ns.name()).withName("web").get();
      assertThat(live.getSpec().getReplicas()).isEqualTo(2);
      assertThat(live.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
          .extracting(EnvVar::getName)
          .containsExactlyInAnyOrder("MODE", "INJECTED");
    }
  }
}
