package dev.converge.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Objects as the API server returns them (trimmed to metadata, spec fields that matter, status).
 */
class WorkloadReadinessTest {

  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private static <T extends HasMetadata> T read(Class<T> type, String yaml) {
    return YAML.unmarshal(yaml, type);
  }

  @Nested
  class Deployments {

    private Deployment deployment(long generation, String spec, String status) {
      return read(
          Deployment.class,
          """
          apiVersion: apps/v1
          kind: Deployment
          metadata: {name: web, namespace: shop, generation: %d}
          spec: %s
          status: %s
          """
              .formatted(generation, spec, status));
    }

    @Test
    void completeRollout() {
      Readiness r =
          WorkloadReadiness.of(
              deployment(
                  3,
                  "{replicas: 3}",
                  """
          {observedGeneration: 3, replicas: 3, updatedReplicas: 3, readyReplicas: 3,
           availableReplicas: 3, conditions: [
            {type: Available, status: "True", reason: MinimumReplicasAvailable},
            {type: Progressing, status: "True", reason: NewReplicaSetAvailable}]}"""));

      assertThat(r.state()).isEqualTo(ReadinessState.CURRENT);
      assertThat(r.message()).isEqualTo("3 of 3 pods of the current template are ready");
    }

    @Test
    void aLaggingObservedGenerationIsInProgressWhateverTheCountsSay() {
      Readiness r =
          WorkloadReadiness.of(
              deployment(
                  4,
                  "{replicas: 3}",
                  """
          {observedGeneration: 3, replicas: 3, updatedReplicas: 3, readyReplicas: 3,
           availableReplicas: 3}"""));

      assertThat(r.state()).isEqualTo(ReadinessState.IN_PROGRESS);
      assertThat(r.message()).contains("not yet observed generation 4").contains("last observed 3");
    }

    @Test
    void observedLatestFollowsObservedGeneration() {
      String counts = "{observedGeneration: %d, replicas: 1, updatedReplicas: 1, readyReplicas: 1}";
      assertThat(WorkloadReadiness.hasObservedLatest(deployment(4, "{}", counts.formatted(3))))
          .isFalse();
      assertThat(WorkloadReadiness.hasObservedLatest(deployment(4, "{}", counts.formatted(4))))
          .isTrue();
      assertThat(WorkloadReadiness.hasObservedLatest(deployment(1, "{}", "{}"))).isFalse();
    }

    @Test
    void noStatusYetIsInProgress() {
      Readiness r = WorkloadReadiness.of(deployment(1, "{replicas: 3}", "{}"));

      assertThat(r.state()).isEqualTo(ReadinessState.IN_PROGRESS);
      assertThat(r.message()).contains("has not reported a status");
    }

    @Test
    void midRolloutWithOldPodsStillServingIsInProgress() {
      // A rolling update: three ready pods, only one of the new template, four in total.
      Readiness r =
          WorkloadReadiness.of(
              deployment(
                  2,
                  "{replicas: 3}",
                  """
          {observedGeneration: 2, replicas: 4, updatedReplicas: 1, readyReplicas: 3,
           availableReplicas: 3, unavailableReplicas: 1}"""));

      assertThat(r.state()).isEqualTo(ReadinessState.IN_PROGRESS);
      assertThat(r.message()).isEqualTo("1 of 3 pods are of the current template");
    }

    @Test
    void oldPodsLeftAfterEveryNewOneExistsIsInProgress() {
      Readiness r =
          WorkloadReadiness.of(
              deployment(
                  2,
                  "{replicas: 3}",
                  """
          {observedGeneration: 2, replicas: 4, updatedReplicas: 3, readyReplicas: 3,
           availableReplicas: 3}"""));

      assertThat(r.state()).isEqualTo(ReadinessState.IN_PROGRESS);
      assertThat(r.message()).isEqualTo("1 pods of an older template are still running");
    }

    @Test
    void readyButNotYetAvailableWaitsForMinReadySeconds() {
      Readiness r =
          WorkloadReadiness.of(
              deployment(
                  2,
                  "{replicas: 2, minReadySeconds: 30}",
                  """
          {observedGeneration: 2, replicas: 2, updatedReplicas: 2, readyReplicas: 2,
           availableReplicas: 1}"""));

      assertThat(r.state()).isEqualTo(ReadinessState.IN_PROGRESS);
      assertThat(r.message()).isEqualTo("1 of 2 pods are available");
    }

    @Test
    void progressDeadlineExceededIsFailedWithTheControllersMessage() {
      Readiness r =
          WorkloadReadiness.of(
              deployment(
                  5,
                  "{replicas: 2, progressDeadlineSeconds: 60}",
                  """
          {observedGeneration: 5, replicas: 3, updatedReplicas: 1, readyReplicas: 2,
           availableReplicas: 2, unavailableReplicas: 1, conditions: [
            {type: Available, status: "True", reason: MinimumReplicasAvailable},
            {type: Progressing, status: "False", reason: ProgressDeadlineExceeded,
             message: ReplicaSet "web-7d9f" has timed out progressing.}]}"""));

      assertThat(r.state()).isEqualTo(ReadinessState.FAILED);
      assertThat(r.isFailed()).isTrue();
      assertThat(r.message()).contains("progress deadline").contains("web-7d9f\" has timed out");
    }

    @Test
    void aPausedRolloutSaysItIsPaused() {
      Readiness r =
          WorkloadReadiness.of(
              deployment(
                  6,
                  "{replicas: 3, paused: true}",
                  """
          {observedGeneration: 6, replicas: 3, updatedReplicas: 0, readyReplicas: 3,
           availableReplicas: 3, conditions: [
            {type: Progressing, status: Unknown, reason: DeploymentPaused}]}"""));

      assertThat(r.state()).isEqualTo(ReadinessState.IN_PROGRESS);
      assertThat(r.message()).contains("0 of 3").contains("spec.paused");
    }

    @Test
    void aPausedDeploymentWithNothingPendingIsCurrent() {
      Readiness r =
          WorkloadReadiness.of(
              deployment(
                  6,
                  "{replicas: 2, paused: true}",
                  """
          {observedGeneration: 6, replicas: 2, updatedReplicas: 2, readyReplicas: 2,
           availableReplicas: 2}"""));

      assertThat(r.isCurrent()).isTrue();
    }

    @Test
    void replicasDefaultToOneAndZeroIsScaledToZero() {
      assertThat(
              WorkloadReadiness.of(
                      deployment(
                          1,
                          "{}",
                          """
          {observedGeneration: 1, replicas: 1, updatedReplicas: 1, readyReplicas: 1,
           availableReplicas: 1}"""))
                  .isCurrent())
          .isTrue();
      Readiness zero =
          WorkloadReadiness.of(deployment(2, "{replicas: 0}", "{observedGeneration: 2}"));
      assertThat(zero.isCurrent()).isTrue();
      assertThat(zero.message()).isEqualTo("scaled to zero");
    }

    @Test
    void beingDeletedIsTerminating() {
      Deployment d = deployment(1, "{replicas: 1}", "{observedGeneration: 1}");
      d.getMetadata().setDeletionTimestamp("2026-12-01T06:00:00Z");

      assertThat(WorkloadReadiness.of(d).state()).isEqualTo(ReadinessState.TERMINATING);
    }
  }

  @Nested
  class StatefulSets {

    private StatefulSet set(String spec, String status) {
      return read(
          StatefulSet.class,
          """
          apiVersion: apps/v1
          kind: StatefulSet
          metadata: {name: db, namespace: shop, generation: 2}
          spec: %s
          status: %s
          """
              .formatted(spec, status));
    }

    @Test
    void rolledOutWhenEveryPodIsReadyAndTheRevisionsAgree() {
      Readiness r =
          WorkloadReadiness.of(
              set(
                  "{replicas: 3}",
                  """
          {observedGeneration: 2, replicas: 3, readyReplicas: 3, currentReplicas: 3,
           updatedReplicas: 3, currentRevision: db-5c8f, updateRevision: db-5c8f}"""));

      assertThat(r.isCurrent()).isTrue();
      assertThat(r.message()).isEqualTo("3 of 3 pods of the current revision are ready");
    }

    @Test
    void aRollingUpdateInProgressNamesTheRevision() {
      Readiness r =
          WorkloadReadiness.of(
              set(
                  "{replicas: 3}",
                  """
          {observedGeneration: 2, replicas: 3, readyReplicas: 3, currentReplicas: 2,
           updatedReplicas: 1, currentRevision: db-5c8f, updateRevision: db-77aa}"""));

      assertThat(r.state()).isEqualTo(ReadinessState.IN_PROGRESS);
      assertThat(r.message()).isEqualTo("1 of 3 pods are of the current revision db-77aa");
    }

    @Test
    void aPartitionedUpdateIsCurrentOnceThePodsAboveThePartitionAreUpdated() {
      String spec =
          "{replicas: 4, updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 2}}}";
      Readiness halfway =
          WorkloadReadiness.of(
              set(
                  spec,
                  """
          {observedGeneration: 2, replicas: 4, readyReplicas: 4, updatedReplicas: 1,
           currentRevision: db-1, updateRevision: db-2}"""));
      Readiness done =
          WorkloadReadiness.of(
              set(
                  spec,
                  """
          {observedGeneration: 2, replicas: 4, readyReplicas: 4, updatedReplicas: 2,
           currentRevision: db-1, updateRevision: db-2}"""));

      assertThat(halfway.state()).isEqualTo(ReadinessState.IN_PROGRESS);
      assertThat(halfway.message()).contains("1 of 2 pods above partition 2");
      assertThat(done.isCurrent()).isTrue();
    }

    @Test
    void notAllReadyIsInProgress() {
      Readiness r =
          WorkloadReadiness.of(
              set(
                  "{replicas: 3}",
                  """
          {observedGeneration: 2, replicas: 2, readyReplicas: 1}"""));

      assertThat(r.message()).isEqualTo("1 of 3 pods are ready");
    }
  }

  @Nested
  class DaemonSets {

    @Test
    void everyScheduledPodUpdatedAndAvailable() {
      DaemonSet ds =
          read(
              DaemonSet.class,
              """
          apiVersion: apps/v1
          kind: DaemonSet
          metadata: {name: agent, namespace: ops, generation: 3}
          status: {observedGeneration: 3, desiredNumberScheduled: 4, currentNumberScheduled: 4,
                   updatedNumberScheduled: 2, numberReady: 4, numberAvailable: 4}
          """);

      assertThat(WorkloadReadiness.of(ds).message())
          .isEqualTo("2 of 4 scheduled pods are of the current template");
      ds.getStatus().setUpdatedNumberScheduled(4);
      assertThat(WorkloadReadiness.of(ds).isCurrent()).isTrue();
    }
  }

  @Nested
  class Jobs {

    private Job job(String spec, String status) {
      return read(
          Job.class,
          """
          apiVersion: batch/v1
          kind: Job
          metadata: {name: migrate, namespace: shop, generation: 1}
          spec: %s
          status: %s
          """
              .formatted(spec, status));
    }

    @Test
    void runningCompleteAndFailed() {
      assertThat(
              WorkloadReadiness.of(job("{completions: 3}", "{active: 1, succeeded: 2}")).message())
          .isEqualTo("1 pods running, 2 of 3 completions, 0 failed");
      Readiness complete =
          WorkloadReadiness.of(
              job(
                  "{}",
                  """
          {succeeded: 1, conditions: [
            {type: SuccessCriteriaMet, status: "True"}, {type: Complete, status: "True"}]}"""));
      assertThat(complete.isCurrent()).isTrue();
      assertThat(complete.message()).isEqualTo("the Job completed: 1 pods succeeded");
      Readiness failed =
          WorkloadReadiness.of(
              job(
                  "{backoffLimit: 1}",
                  """
          {failed: 2, conditions: [{type: FailureTarget, status: "True", reason: BackoffLimitExceeded},
            {type: Failed, status: "True", reason: BackoffLimitExceeded,
             message: Job has reached the specified backoff limit}]}"""));
      assertThat(failed.isFailed()).isTrue();
      assertThat(failed.message())
          .isEqualTo(
              "the Job failed (BackoffLimitExceeded): Job has reached the specified backoff limit");
    }

    @Test
    void suspendedSaysSo() {
      assertThat(
              WorkloadReadiness.of(
                      job(
                          "{suspend: true}",
                          """
          {conditions: [{type: Suspended, status: "True", reason: JobSuspended}]}"""))
                  .message())
          .contains("suspended");
    }
  }

  @Nested
  class ServicesAndClaims {

    @Test
    void aClusterIpServiceIsCurrentOnceAllocated() {
      Service allocated =
          read(
              Service.class,
              """
          apiVersion: v1
          kind: Service
          metadata: {name: web, namespace: shop}
          spec: {type: ClusterIP, clusterIP: 10.0.0.12, ports: [{port: 80}]}
          """);
      assertThat(WorkloadReadiness.of(allocated).message()).isEqualTo("cluster IP 10.0.0.12");
      allocated.getSpec().setClusterIP(null);
      assertThat(WorkloadReadiness.of(allocated).state()).isEqualTo(ReadinessState.IN_PROGRESS);
    }

    @Test
    void aLoadBalancerWaitsForItsAddress() {
      Service lb =
          read(
              Service.class,
              """
          apiVersion: v1
          kind: Service
          metadata: {name: web, namespace: shop}
          spec: {type: LoadBalancer, clusterIP: 10.0.0.12, ports: [{port: 80, nodePort: 30080}]}
          status: {loadBalancer: {}}
          """);
      assertThat(WorkloadReadiness.of(lb).message()).contains("load balancer");
      assertThat(WorkloadReadiness.of(lb).isCurrent()).isFalse();
      lb.getStatus()
          .getLoadBalancer()
          .setIngress(
              java.util.List.of(
                  new io.fabric8.kubernetes.api.model.LoadBalancerIngressBuilder()
                      .withIp("203.0.113.7")
                      .build()));
      assertThat(WorkloadReadiness.of(lb).message()).isEqualTo("load balancer at 203.0.113.7");
    }

    @Test
    void claimsByPhase() {
      PersistentVolumeClaim claim =
          read(
              PersistentVolumeClaim.class,
              """
          apiVersion: v1
          kind: PersistentVolumeClaim
          metadata: {name: data, namespace: shop}
          spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
          status: {phase: Pending}
          """);
      assertThat(WorkloadReadiness.of(claim).state()).isEqualTo(ReadinessState.IN_PROGRESS);
      claim.getSpec().setVolumeName("pv-1");
      claim.getStatus().setPhase("Bound");
      assertThat(WorkloadReadiness.of(claim).message()).isEqualTo("bound to volume pv-1");
      claim.getStatus().setPhase("Lost");
      assertThat(WorkloadReadiness.of(claim).isFailed()).isTrue();
    }

    @Test
    void otherKindsAreRefusedNamingTheSupportedOnes() {
      ConfigMap cm =
          read(ConfigMap.class, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n");
      assertThatThrownBy(() -> WorkloadReadiness.of((HasMetadata) cm))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("ConfigMap c")
          .hasMessageContaining("Deployment, StatefulSet");
    }
  }

  @Test
  void readyReplicasAreTheReadyPodsTheWorkloadsControllerReported() {
    Deployment deployment =
        read(
            Deployment.class,
            """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web}
            status: {replicas: 3, readyReplicas: 2}
            """);
    StatefulSet set =
        read(
            StatefulSet.class,
            """
            apiVersion: apps/v1
            kind: StatefulSet
            metadata: {name: db}
            status: {replicas: 3, readyReplicas: 3}
            """);
    DaemonSet daemons =
        read(
            DaemonSet.class,
            """
            apiVersion: apps/v1
            kind: DaemonSet
            metadata: {name: agent}
            status: {desiredNumberScheduled: 4, numberReady: 1}
            """);
    Deployment fresh =
        read(
            Deployment.class,
            """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: new}
            """);

    assertThat(WorkloadReadiness.readyReplicas(deployment)).isEqualTo(2);
    assertThat(WorkloadReadiness.readyReplicas(set)).isEqualTo(3);
    assertThat(WorkloadReadiness.readyReplicas(daemons)).isEqualTo(1);
    assertThat(WorkloadReadiness.readyReplicas(fresh)).as("no status yet").isZero();
    assertThat(WorkloadReadiness.readyReplicas(new ConfigMap())).as("not a workload").isZero();
  }
}
