package dev.converge.example.desired;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentSpec;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DesiredObjectsTest {

  private static AppDeployment app(AppDeploymentSpec spec) {
    AppDeployment app = AppDeployment.of("shop", "web", spec);
    app.getMetadata().setUid("0c1f6a7e-1111-2222-3333-444455556666");
    app.getMetadata().setGeneration(3L);
    return app;
  }

  @Test
  void deploymentRunsTheImageWithTheReplicasPortAndConfig() {
    AppDeployment app = app(new AppDeploymentSpec("nginx:1.27", 3, "web-config", 9090));

    Deployment deployment = DesiredDeployment.of(app, Optional.of("0123456789abcdef"));

    assertThat(deployment.getApiVersion()).isEqualTo("apps/v1");
    assertThat(deployment.getKind()).isEqualTo("Deployment");
    assertThat(deployment.getMetadata().getName()).isEqualTo("web");
    assertThat(deployment.getMetadata().getNamespace()).isEqualTo("shop");
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(3);
    Container container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(container.getName()).isEqualTo("app");
    assertThat(container.getImage()).isEqualTo("nginx:1.27");
    assertThat(container.getPorts())
        .singleElement()
        .satisfies(p -> assertThat(p.getContainerPort()).isEqualTo(9090))
        .satisfies(p -> assertThat(p.getName()).isEqualTo("http"));
    assertThat(container.getEnvFrom())
        .singleElement()
        .satisfies(e -> assertThat(e.getConfigMapRef().getName()).isEqualTo("web-config"));
    assertThat(deployment.getSpec().getTemplate().getMetadata().getAnnotations())
        .containsEntry("apps.converge.dev/config-hash", "0123456789abcdef");
  }

  @Test
  void selectorMatchesTheTemplateAndTheService() {
    AppDeployment app = app(new AppDeploymentSpec("nginx", 1, null, null));
    Deployment deployment = DesiredDeployment.of(app, Optional.empty());
    Service service = DesiredService.of(app);

    assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(deployment.getSpec().getSelector().getMatchLabels());
    assertThat(service.getSpec().getSelector())
        .isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
    assertThat(deployment.getSpec().getSelector().getMatchLabels())
        .containsEntry("app.kubernetes.io/instance", "web")
        .containsEntry("app.kubernetes.io/managed-by", "converge-app-operator");
  }

  @Test
  void withoutAConfigMapThereIsNoEnvFromAndNoHash() {
    AppDeployment app = app(new AppDeploymentSpec("nginx", null, null, null));
    Deployment deployment = DesiredDeployment.of(app, Optional.empty());

    Container container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(container.getEnvFrom()).isNullOrEmpty();
    assertThat(deployment.getSpec().getTemplate().getMetadata().getAnnotations()).isNullOrEmpty();
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(AppDeploymentSpec.DEFAULT_REPLICAS);
    assertThat(container.getPorts().get(0).getContainerPort())
        .isEqualTo(AppDeploymentSpec.DEFAULT_PORT);
  }

  @Test
  void aDifferentConfigHashChangesOnlyTheTemplateAnnotation() {
    AppDeployment app = app(new AppDeploymentSpec("nginx", 2, "cfg", null));
    Deployment one = DesiredDeployment.of(app, Optional.of("1111111111111111"));
    Deployment two = DesiredDeployment.of(app, Optional.of("2222222222222222"));

    assertThat(one.getSpec().getTemplate()).isNotEqualTo(two.getSpec().getTemplate());
    two.getSpec()
        .getTemplate()
        .getMetadata()
        .getAnnotations()
        .put(AppLabels.CONFIG_HASH_ANNOTATION, "1111111111111111");
    assertThat(one).isEqualTo(two);
  }

  @Test
  void serviceIsClusterIpOnThePortWithoutAnAllocatedAddress() {
    AppDeployment app = app(new AppDeploymentSpec("nginx", 1, null, 8443));
    Service service = DesiredService.of(app);

    assertThat(service.getSpec().getType()).isEqualTo("ClusterIP");
    assertThat(service.getSpec().getClusterIP()).isNull();
    assertThat(service.getSpec().getPorts())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.getPort()).isEqualTo(8443);
              assertThat(p.getTargetPort().getIntVal()).isEqualTo(8443);
              assertThat(p.getName()).isEqualTo("http");
            });
  }
}
