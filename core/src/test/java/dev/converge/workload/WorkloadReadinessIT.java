package dev.converge.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Readiness read from the status that the real controllers write during real rollouts: the
 * kube-controller-manager's Deployment and Job controllers, with pods made Ready (and Job pods
 * Succeeded) by kwok.
 */
@ExtendWith(LocalClusterExtension.class)
class WorkloadReadinessIT {

  private static final Duration ROLLOUT = Duration.ofSeconds(60);

  private static Deployment deployment(
      String image, int replicas, Map<String, String> nodeSelector) {
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName("web")
        .endMetadata()
        .withNewSpec()
        .withReplicas(replicas)
        .withProgressDeadlineSeconds(600)
        .withNewSelector()
        .addToMatchLabels("app", "web")
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .addToLabels("app", "web")
        .endMetadata()
        .withSpec(
            new PodSpecBuilder()
                .withNodeSelector(nodeSelector)
                .withContainers(new ContainerBuilder().withName("app").withImage(image).build())
                .build())
        .endTemplate()
        .endSpec()
        .build();
  }

  /** Every readiness seen for the Deployment "web", in order, from a watch. */
  private static Watch record(KubernetesClient client, List<Readiness> seen) {
    return client
        .apps()
        .deployments()
        .withName("web")
        .watch(
            new Watcher<>() {
              @Override
              public void eventReceived(Action action, Deployment resource) {
                seen.add(WorkloadReadiness.of(resource));
              }

              @Override
              public void onClose(WatcherException cause) {}
            });
  }

  @Test
  void aRealRolloutGoesThroughInProgressToCurrentAndSoDoesAnImageChange(KubernetesClient client) {
    List<Readiness> seen = new CopyOnWriteArrayList<>();
    Watch watch = record(client, seen);
    try (watch) {
      Deployment created = client.resource(deployment("nginx:1.27", 3, Map.of())).create();
      assertThat(WorkloadReadiness.of(created).state())
          .as("a new Deployment, not yet seen by its controller")
          .isEqualTo(ReadinessState.IN_PROGRESS);
      await("rollout complete")
          .atMost(ROLLOUT)
          .until(
              () ->
                  WorkloadReadiness.of(client.apps().deployments().withName("web").get())
                      .isCurrent());
      Readiness done = WorkloadReadiness.of(client.apps().deployments().withName("web").get());
      assertThat(done.message()).isEqualTo("3 of 3 pods of the current template are ready");
      assertThat(seen)
          .extracting(Readiness::state)
          .startsWith(ReadinessState.IN_PROGRESS)
          .contains(ReadinessState.CURRENT);

      seen.clear();
      Deployment changed =
          client
              .apps()
              .deployments()
              .withName("web")
              .edit(
                  d -> {
                    d.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .setImage("nginx:1.28");
                    return d;
                  });
      assertThat(WorkloadReadiness.hasObservedLatest(changed)).isFalse();
      assertThat(WorkloadReadiness.of(changed).message()).contains("not yet observed generation 2");
      await("second rollout complete")
          .atMost(ROLLOUT)
          .until(
              () ->
                  WorkloadReadiness.of(client.apps().deployments().withName("web").get())
                      .isCurrent());
      assertThat(seen)
          .as("states seen during the image change")
          .extracting(Readiness::state)
          .startsWith(ReadinessState.IN_PROGRESS)
          .endsWith(ReadinessState.CURRENT);
      assertThat(seen)
          .extracting(Readiness::message)
          .anyMatch(
              m ->
                  m.contains("of 3 pods are of the current template")
                      || m.contains("older template"));
    }
  }

  @Test
  void podsThatCannotBeScheduledMissTheProgressDeadlineAndFail(KubernetesClient client) {
    Deployment stuck = deployment("nginx:1.27", 1, Map.of("no-such-node-label", "x"));
    stuck.getSpec().setProgressDeadlineSeconds(1);
    client.resource(stuck).create();

    await("progress deadline exceeded")
        .atMost(ROLLOUT)
        .until(
            () ->
                WorkloadReadiness.of(client.apps().deployments().withName("web").get()).isFailed());
    Readiness failed = WorkloadReadiness.of(client.apps().deployments().withName("web").get());
    assertThat(failed.message())
        .contains("progress deadline")
        .contains("has timed out progressing");
  }

  @Test
  void aJobRunsToCompletion(KubernetesClient client) {
    Job job =
        client
            .resource(
                new JobBuilder()
                    .withNewMetadata()
                    .withName("migrate")
                    .endMetadata()
                    .withNewSpec()
                    .withCompletions(1)
                    .withNewTemplate()
                    .withSpec(
                        new PodSpecBuilder()
                            .withRestartPolicy("Never")
                            .withContainers(
                                new ContainerBuilder().withName("run").withImage("busybox").build())
                            .build())
                    .endTemplate()
                    .endSpec()
                    .build())
            .create();
    assertThat(WorkloadReadiness.of(job).state()).isEqualTo(ReadinessState.IN_PROGRESS);

    await("Job complete")
        .atMost(ROLLOUT)
        .until(
            () ->
                WorkloadReadiness.of(client.batch().v1().jobs().withName("migrate").get())
                    .isCurrent());
    assertThat(WorkloadReadiness.of(client.batch().v1().jobs().withName("migrate").get()).message())
        .isEqualTo("the Job completed: 1 pods succeeded");
  }
}
