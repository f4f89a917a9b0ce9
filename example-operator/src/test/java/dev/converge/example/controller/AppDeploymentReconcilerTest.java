package dev.converge.example.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.api.AppDeploymentStatus;
import dev.converge.example.api.Phase;
import dev.converge.example.desired.AppLabels;
import dev.converge.owner.OwnerReferences;
import dev.converge.reconcile.Result;
import dev.converge.status.Conditions;
import dev.converge.unittest.TestContext;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AppDeploymentReconcilerTest {

  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-11-29T10:00:00Z"), ZoneOffset.UTC);
  private final AppDeploymentReconciler reconciler =
      new AppDeploymentReconciler(new Conditions(CLOCK));

  private static TestContext<AppDeployment> context(String image, int replicas, String configMap) {
    AppDeployment app =
        AppDeployment.of("shop", "web", new AppDeploymentSpec(image, replicas, configMap, null));
    app.getMetadata().setGeneration(4L);
    return TestContext.of(app);
  }

  private static ConfigMap configMap(String value) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("web-config")
        .withNamespace("shop")
        .endMetadata()
        .withData(Map.of("A", value))
        .build();
  }

  /** What the Deployment controller would write: observed generation and replica counts. */
  private static void deploymentStatus(
      TestContext<?> context, int replicas, int updated, int ready) {
    context.edit(
        Deployment.class,
        "web",
        d ->
            d.setStatus(
                new DeploymentStatusBuilder()
                    .withObservedGeneration(d.getMetadata().getGeneration())
                    .withReplicas(replicas)
                    .withUpdatedReplicas(updated)
                    .withReadyReplicas(ready)
                    .withAvailableReplicas(ready)
                    .build()));
  }

  private static Condition condition(AppDeployment app, String type) {
    return Conditions.find(app.getStatus().conditions(), type).orElseThrow();
  }

  private Result reconcile(TestContext<AppDeployment> context) throws Exception {
    return reconciler.reconcile(context.primary(), context);
  }

  @Test
  void anUnparsableImageIsAPermanentFailureWithFailedPhaseAndNoWrites() throws Exception {
    TestContext<AppDeployment> context = context("Nginx:1.27", 1, null);
    Result result = reconcile(context);

    assertThat(result)
        .isInstanceOfSatisfying(
            Result.PermanentFailure.class,
            failure -> {
              assertThat(failure.reason()).isEqualTo("InvalidImage");
              assertThat(failure.message())
                  .contains("spec.image")
                  .contains("Nginx:1.27")
                  .contains("lower-case");
            });
    assertThat(context.applied()).isEmpty();
    assertThat(context.primary().getStatus().phase()).isEqualTo(Phase.Failed);
    assertThat(condition(context.primary(), AppDeploymentStatus.READY).getReason())
        .isEqualTo("InvalidImage");
  }

  @Test
  void anAppDeploymentWithoutSpecIsAPermanentFailureToo() throws Exception {
    AppDeployment app = AppDeployment.of("shop", "web", null);
    TestContext<AppDeployment> context = TestContext.of(app);

    assertThat(reconcile(context)).isInstanceOf(Result.PermanentFailure.class);
    assertThat(context.primary().getStatus().phase()).isEqualTo(Phase.Failed);
  }

  @Test
  void aMissingConfigMapAsksToBeCheckedAgainInThirtySecondsNotThirtyNanoseconds() throws Exception {
    TestContext<AppDeployment> context = context("nginx:1.27", 2, "web-config");
    Result result = reconcile(context);

    assertThat(result).isEqualTo(Result.requeueAfter(Duration.ofSeconds(30)));
    assertThat(context.applied()).singleElement().isInstanceOf(Service.class);
    AppDeployment written = context.primary();
    Condition resolved = condition(written, AppDeploymentStatus.CONFIG_RESOLVED);
    assertThat(resolved.getStatus()).isEqualTo("False");
    assertThat(resolved.getReason()).isEqualTo("ConfigMapNotFound");
    assertThat(resolved.getMessage()).contains("shop/web-config");
    assertThat(written.getStatus().phase()).isEqualTo(Phase.Pending);
  }

  @Test
  void theDeploymentAndServiceAreControlledByTheAppDeploymentSoDeletionCascades() throws Exception {
    TestContext<AppDeployment> context = context("nginx:1.27", 1, null);
    reconcile(context);

    assertThat(context.applied())
        .hasSize(2)
        .allSatisfy(
            dependent ->
                assertThat(OwnerReferences.isControlledBy(dependent, context.primary())).isTrue());
    assertThat(context.owned(Deployment.class)).hasSize(1);
    assertThat(context.owned(Service.class)).hasSize(1);
  }

  @Test
  void theConfigMapContentHashGoesIntoThePodTemplate() throws Exception {
    TestContext<AppDeployment> context =
        context("nginx:1.27", 2, "web-config").with(configMap("1"));
    reconcile(context);
    String first = hashOf(context);

    context.with(configMap("2"));
    reconcile(context);

    assertThat(first).isNotBlank();
    assertThat(hashOf(context)).isNotBlank().isNotEqualTo(first);
  }

  @Test
  void runningOnlyWhenEveryPodIsOfTheCurrentTemplateAndReady() throws Exception {
    TestContext<AppDeployment> context = context("nginx:1.27", 3, null);
    reconcile(context);

    // Mid-rollout: three ready pods, but only one of the new template and four in total.
    deploymentStatus(context, 4, 1, 3);
    reconcile(context);
    AppDeployment rolling = context.primary();
    assertThat(rolling.getStatus().phase()).isEqualTo(Phase.Pending);
    assertThat(condition(rolling, AppDeploymentStatus.READY).getReason()).isEqualTo("RollingOut");

    deploymentStatus(context, 3, 3, 3);
    reconcile(context);
    AppDeployment running = context.primary();
    assertThat(running.getStatus().phase()).isEqualTo(Phase.Running);
    assertThat(running.getStatus().readyReplicas()).isEqualTo(3);
    assertThat(running.getStatus().observedGeneration()).isEqualTo(4L);
    assertThat(condition(running, AppDeploymentStatus.READY).getStatus()).isEqualTo("True");
    assertThat(condition(running, AppDeploymentStatus.CONFIG_RESOLVED).getReason())
        .isEqualTo("NoConfigMapReferenced");
  }

  @Test
  void aNewAppDeploymentGetsOneStatusWriteOnceTheDeploymentControllerHasReported()
      throws Exception {
    TestContext<AppDeployment> context = context("nginx:1.27", 1, null);

    // First pass: Deployment and Service created; their controller has not looked yet.
    assertThat(reconcile(context)).isEqualTo(Result.done());
    assertThat(context.statusWrites()).isEmpty();

    deploymentStatus(context, 1, 1, 1);
    reconcile(context);

    assertThat(context.statusWrites()).hasSize(1);
    assertThat(context.primary().getStatus().phase()).isEqualTo(Phase.Running);
  }

  @Test
  void anUnchangedStatusIsNotWrittenAgain() throws Exception {
    TestContext<AppDeployment> context = context("nginx:1.27", 1, null);
    reconcile(context);
    deploymentStatus(context, 1, 1, 1);
    reconcile(context);
    int writes = context.statusWrites().size();

    reconcile(context);

    assertThat(context.statusWrites()).hasSize(writes);
  }

  @Test
  void whileTheDeploymentControllerCatchesUpACurrentStatusIsLeftAlone() throws Exception {
    TestContext<AppDeployment> context = context("nginx:1.27", 1, null);
    reconcile(context);
    deploymentStatus(context, 1, 1, 1);
    reconcile(context);
    int writes = context.statusWrites().size();

    // Someone annotated the Deployment: generation 2, not yet observed by its controller.
    context.edit(Deployment.class, "web", d -> d.getMetadata().setGeneration(2L));
    Result result = reconcile(context);

    assertThat(result).isEqualTo(Result.done());
    assertThat(context.statusWrites()).hasSize(writes);
  }

  @Test
  void anAppDeploymentDeletedBeforeItsStatusWriteIsNotAFailure() throws Exception {
    TestContext<AppDeployment> context = context("nginx:1.27", 1, null);
    AppDeployment read = context.primary();
    context.deletePrimary();

    assertThat(reconciler.reconcile(read, context)).isEqualTo(Result.done());
  }

  private static String hashOf(TestContext<AppDeployment> context) {
    var deployments = context.applied(Deployment.class);
    return deployments
        .get(deployments.size() - 1)
        .getSpec()
        .getTemplate()
        .getMetadata()
        .getAnnotations()
        .get(AppLabels.CONFIG_HASH_ANNOTATION);
  }
}
