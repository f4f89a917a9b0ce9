package dev.converge.example.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.api.AppDeploymentStatus;
import dev.converge.example.api.Phase;
import dev.converge.example.desired.AppLabels;
import dev.converge.reconcile.ObjectKey;
import dev.converge.reconcile.Result;
import dev.converge.status.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AppDeploymentReconcilerTest {

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T10:00:00Z"), ZoneOffset.UTC);
  private final AppDeploymentReconciler reconciler = new AppDeploymentReconciler(new Conditions(CLOCK));

  private static AppDeployment app(String image, int replicas, String configMap) {
    AppDeployment app = AppDeployment.of("shop", "web", new AppDeploymentSpec(image, replicas, configMap, null));
    app.getMetadata().setUid("uid-1");
    app.getMetadata().setGeneration(4L);
    app.getMetadata().setResourceVersion("10");
    return app;
  }

  private static FakeContext context() {
    return new FakeContext(new ObjectKey("shop", "web"));
  }

  private static void deploymentStatus(FakeContext context, long observed, int replicas, int updated, int ready) {
    Deployment deployment = context.live(Deployment.class, "web").orElseThrow();
    deployment.getMetadata().setGeneration(observed);
    deployment.setStatus(new DeploymentStatusBuilder().withObservedGeneration(observed)
        .withReplicas(replicas).withUpdatedReplicas(updated).withReadyReplicas(ready).build());
  }

  private static Condition condition(AppDeployment app, String type) {
    return Conditions.find(app.getStatus().getConditions(), type).orElseThrow();
  }

  @Test
  void anUnparsableImageIsAPermanentFailureWithFailedPhaseAndNoWrites() throws Exception {
    FakeContext context = context();
    Result result = reconciler.reconcile(app("Nginx:1.27", 1, null), context);

    assertThat(result).isInstanceOfSatisfying(Result.PermanentFailure.class, failure -> {
      assertThat(failure.reason()).isEqualTo("InvalidImage");
      assertThat(failure.message()).contains("spec.image").contains("Nginx:1.27").contains("lower-case");
    });
    assertThat(context.applied).isEmpty();
    AppDeployment written = context.statusWrites.get(0);
    assertThat(written.getStatus().getPhase()).isEqualTo(Phase.Failed);
    assertThat(condition(written, AppDeploymentStatus.READY).getReason()).isEqualTo("InvalidImage");
  }

  @Test
  void aMissingConfigMapAsksToBeCheckedAgainInThirtySecondsNotThirtyNanoseconds() throws Exception {
    FakeContext context = context();
    Result result = reconciler.reconcile(app("nginx:1.27", 2, "web-config"), context);

    assertThat(result).isEqualTo(Result.requeueAfter(Duration.ofSeconds(30)));
    assertThat(context.applied).singleElement().isInstanceOf(Service.class);
    AppDeployment written = context.statusWrites.get(0);
    Condition resolved = condition(written, AppDeploymentStatus.CONFIG_RESOLVED);
    assertThat(resolved.getStatus()).isEqualTo("False");
    assertThat(resolved.getReason()).isEqualTo("ConfigMapNotFound");
    assertThat(resolved.getMessage()).contains("shop/web-config");
    assertThat(written.getStatus().getPhase()).isEqualTo(Phase.Pending);
  }

  @Test
  void theConfigMapContentHashGoesIntoThePodTemplate() throws Exception {
    FakeContext context = context().with(new ConfigMapBuilder().withNewMetadata().withName("web-config")
        .withNamespace("shop").endMetadata().withData(Map.of("A", "1")).build());
    reconciler.reconcile(app("nginx:1.27", 2, "web-config"), context);
    String first = hashOf(context);

    context.with(new ConfigMapBuilder().withNewMetadata().withName("web-config").withNamespace("shop")
        .endMetadata().withData(Map.of("A", "2")).build());
    reconciler.reconcile(app("nginx:1.27", 2, "web-config"), context);

    assertThat(first).isNotBlank();
    assertThat(hashOf(context)).isNotBlank().isNotEqualTo(first);
  }

  @Test
  void runningOnlyWhenEveryPodIsOfTheCurrentTemplateAndReady() throws Exception {
    FakeContext context = context();
    AppDeployment app = app("nginx:1.27", 3, null);
    reconciler.reconcile(app, context);

    // Mid-rollout: three ready pods, but only one of the new template and four in total.
    deploymentStatus(context, 1, 4, 1, 3);
    reconciler.reconcile(app, context);
    AppDeployment rolling = last(context);
    assertThat(rolling.getStatus().getPhase()).isEqualTo(Phase.Pending);
    assertThat(condition(rolling, AppDeploymentStatus.READY).getReason()).isEqualTo("RollingOut");

    deploymentStatus(context, 1, 3, 3, 3);
    reconciler.reconcile(app, context);
    AppDeployment running = last(context);
    assertThat(running.getStatus().getPhase()).isEqualTo(Phase.Running);
    assertThat(running.getStatus().getReadyReplicas()).isEqualTo(3);
    assertThat(running.getStatus().getObservedGeneration()).isEqualTo(4L);
    assertThat(condition(running, AppDeploymentStatus.READY).getStatus()).isEqualTo("True");
    assertThat(condition(running, AppDeploymentStatus.CONFIG_RESOLVED).getReason())
        .isEqualTo("NoConfigMapReferenced");
  }

  @Test
  void anUnchangedStatusIsNotWrittenAgain() throws Exception {
    FakeContext context = context();
    AppDeployment app = app("nginx:1.27", 1, null);
    reconciler.reconcile(app, context);
    deploymentStatus(context, 1, 1, 1, 1);
    reconciler.reconcile(app, context);
    int writes = context.statusWrites.size();

    AppDeployment asStored = app("nginx:1.27", 1, null);
    asStored.setStatus(last(context).getStatus());
    reconciler.reconcile(asStored, context);

    assertThat(context.statusWrites).hasSize(writes);
  }

  @Test
  void whileTheDeploymentControllerCatchesUpACurrentStatusIsLeftAlone() throws Exception {
    FakeContext context = context();
    AppDeployment app = app("nginx:1.27", 1, null);
    reconciler.reconcile(app, context);
    deploymentStatus(context, 1, 1, 1, 1);
    reconciler.reconcile(app, context);
    AppDeployment asStored = app("nginx:1.27", 1, null);
    asStored.setStatus(last(context).getStatus());
    int writes = context.statusWrites.size();

    // Someone annotated the Deployment: generation 2, not yet observed by its controller.
    context.live(Deployment.class, "web").orElseThrow().getMetadata().setGeneration(2L);
    Result result = reconciler.reconcile(asStored, context);

    assertThat(result).isEqualTo(Result.done());
    assertThat(context.statusWrites).hasSize(writes);
  }

  @Test
  void anAppDeploymentDeletedBeforeItsStatusWriteIsNotAFailure() throws Exception {
    FakeContext context = context();
    context.statusFailure = new KubernetesClientException("appdeployments \"web\" not found", 404, null);

    assertThat(reconciler.reconcile(app("nginx:1.27", 1, null), context)).isEqualTo(Result.done());
  }

  private static AppDeployment last(FakeContext context) {
    return context.statusWrites.get(context.statusWrites.size() - 1);
  }

  private static String hashOf(FakeContext context) {
    HasMetadata deployment = context.applied.stream().filter(Deployment.class::isInstance)
        .reduce((a, b) -> b).orElseThrow();
    return ((Deployment) deployment).getSpec().getTemplate().getMetadata().getAnnotations()
        .get(AppLabels.CONFIG_HASH_ANNOTATION);
  }
}
