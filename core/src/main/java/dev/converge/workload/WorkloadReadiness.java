package dev.converge.workload;

import dev.converge.retry.internal.ResourceText;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetStatus;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatus;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Is a workload done rolling out? Read from the object's status as its controller wrote it, with
 * the rules {@code kubectl rollout status} and kstatus use:
 *
 * <ul>
 *   <li>An object being deleted is {@link ReadinessState#TERMINATING}.
 *   <li>A status whose {@code observedGeneration} lags {@code metadata.generation} says nothing
 *       about the latest spec: {@link ReadinessState#IN_PROGRESS}, whatever its counts say.
 *   <li>Deployment: current when every desired replica is of the current template, ready and
 *       available, and no old replica is left; failed when its Progressing condition reports {@code
 *       ProgressDeadlineExceeded}; a paused rollout says so.
 *   <li>StatefulSet: every replica ready and, for rolling updates, updated (up to the partition),
 *       with the current revision equal to the update revision.
 *   <li>DaemonSet: every scheduled pod updated, ready and available.
 *   <li>Job: current when Complete, failed when Failed (or FailureTarget); else in progress.
 *   <li>Service: current once it has a cluster IP, and for a LoadBalancer an ingress address.
 *   <li>PersistentVolumeClaim: current when Bound, failed when Lost.
 * </ul>
 */
public final class WorkloadReadiness {

  private WorkloadReadiness() {}

  /**
   * The readiness of a Deployment, StatefulSet, DaemonSet, Job, Service or PersistentVolumeClaim,
   * for code that handles dependents of several kinds alike.
   *
   * @param object the object, as read from the API server or a cache
   * @return where it stands and why
   * @throws IllegalArgumentException for any other kind, naming the supported ones
   */
  public static Readiness of(HasMetadata object) {
    Objects.requireNonNull(object, "object");
    if (object instanceof Deployment d) {
      return of(d);
    }
    if (object instanceof StatefulSet s) {
      return of(s);
    }
    if (object instanceof DaemonSet d) {
      return of(d);
    }
    if (object instanceof Job j) {
      return of(j);
    }
    if (object instanceof Service s) {
      return of(s);
    }
    if (object instanceof PersistentVolumeClaim p) {
      return of(p);
    }
    throw new IllegalArgumentException(
        "readiness is known for Deployment, StatefulSet, DaemonSet,"
            + " Job, Service and PersistentVolumeClaim; "
            + ResourceText.describe(object)
            + " is none of them: read its status conditions instead");
  }

  /**
   * True when the object's controller has looked at its latest spec: {@code
   * status.observedGeneration} is at least {@code metadata.generation}. Until then its status
   * describes an older spec (and a reconciler had better not conclude anything new from it). Kinds
   * without an observedGeneration (Job, Service, PersistentVolumeClaim) count as observed.
   *
   * @param object the object, as read from the API server or a cache
   * @return false while the status describes an older spec or is missing
   */
  public static boolean hasObservedLatest(HasMetadata object) {
    Long observed;
    if (object instanceof Deployment d) {
      observed = d.getStatus() == null ? null : d.getStatus().getObservedGeneration();
    } else if (object instanceof StatefulSet s) {
      observed = s.getStatus() == null ? null : s.getStatus().getObservedGeneration();
    } else if (object instanceof DaemonSet d) {
      observed = d.getStatus() == null ? null : d.getStatus().getObservedGeneration();
    } else {
      return true;
    }
    Long generation = object.getMetadata() == null ? null : object.getMetadata().getGeneration();
    return observed != null && (generation == null || observed >= generation);
  }

  /**
   * The ready pods of a Deployment, StatefulSet, ReplicaSet or DaemonSet ({@code numberReady}) as
   * its controller last reported them, for a primary's {@code status.readyReplicas}; 0 while it has
   * no status, and for other kinds.
   *
   * @param workload the workload, as read from the API server or a cache
   * @return the number of ready pods
   */
  public static int readyReplicas(HasMetadata workload) {
    Integer ready = null;
    if (workload instanceof Deployment d && d.getStatus() != null) {
      ready = d.getStatus().getReadyReplicas();
    } else if (workload instanceof StatefulSet s && s.getStatus() != null) {
      ready = s.getStatus().getReadyReplicas();
    } else if (workload instanceof ReplicaSet r && r.getStatus() != null) {
      ready = r.getStatus().getReadyReplicas();
    } else if (workload instanceof DaemonSet d && d.getStatus() != null) {
      ready = d.getStatus().getNumberReady();
    }
    return zero(ready);
  }

  /**
   * The readiness of a Deployment's rollout.
   *
   * @param deployment the Deployment, as read from the API server or a cache
   * @return where its rollout stands and why
   */
  public static Readiness of(Deployment deployment) {
    Optional<Readiness> early =
        terminatingOrNotObserved(
            deployment,
            deployment.getStatus() == null ? null : deployment.getStatus().getObservedGeneration(),
            "Deployment");
    if (early.isPresent()) {
      return early.get();
    }
    DeploymentStatus status = deployment.getStatus();
    Optional<DeploymentCondition> progressing =
        conditions(status.getConditions()).stream()
            .filter(c -> "Progressing".equals(c.getType()))
            .findFirst();
    if (progressing.isPresent()
        && "ProgressDeadlineExceeded".equals(progressing.get().getReason())) {
      return Readiness.failed(
          "rollout exceeded its progress deadline" + messageOf(progressing.get().getMessage()));
    }
    int desired = orOne(deployment.getSpec() == null ? null : deployment.getSpec().getReplicas());
    int updated = zero(status.getUpdatedReplicas());
    int replicas = zero(status.getReplicas());
    int ready = zero(status.getReadyReplicas());
    int available = zero(status.getAvailableReplicas());
    boolean paused =
        deployment.getSpec() != null && Boolean.TRUE.equals(deployment.getSpec().getPaused());
    String pausedNote = paused ? " (rollout paused: spec.paused is true)" : "";
    if (updated < desired) {
      return Readiness.inProgress(
          updated + " of " + desired + " pods are of the current template" + pausedNote);
    }
    if (replicas > updated) {
      return Readiness.inProgress(
          (replicas - updated) + " pods of an older template are still" + " running" + pausedNote);
    }
    if (ready < desired) {
      return Readiness.inProgress(ready + " of " + desired + " pods are ready");
    }
    if (available < desired) {
      return Readiness.inProgress(available + " of " + desired + " pods are available");
    }
    return Readiness.current(
        desired == 0
            ? "scaled to zero"
            : desired + " of " + desired + " pods of the current template are ready");
  }

  /**
   * The readiness of a StatefulSet's rollout.
   *
   * @param set the StatefulSet, as read from the API server or a cache
   * @return where its rollout stands and why
   */
  public static Readiness of(StatefulSet set) {
    Optional<Readiness> early =
        terminatingOrNotObserved(
            set,
            set.getStatus() == null ? null : set.getStatus().getObservedGeneration(),
            "StatefulSet");
    if (early.isPresent()) {
      return early.get();
    }
    StatefulSetStatus status = set.getStatus();
    int desired = orOne(set.getSpec() == null ? null : set.getSpec().getReplicas());
    int replicas = zero(status.getReplicas());
    int ready = zero(status.getReadyReplicas());
    if (replicas > desired) {
      return Readiness.inProgress("scaling down: " + replicas + " pods for " + desired + " wanted");
    }
    if (ready < desired) {
      return Readiness.inProgress(ready + " of " + desired + " pods are ready");
    }
    var strategy = set.getSpec() == null ? null : set.getSpec().getUpdateStrategy();
    if (strategy != null && "OnDelete".equals(strategy.getType())) {
      return Readiness.current(
          desired
              + " of "
              + desired
              + " pods are ready (OnDelete updates:"
              + " pods take the new template only when deleted)");
    }
    int partition =
        strategy == null || strategy.getRollingUpdate() == null
            ? 0
            : zero(strategy.getRollingUpdate().getPartition());
    int updated = zero(status.getUpdatedReplicas());
    if (partition > 0) {
      int wanted = Math.max(0, desired - partition);
      if (updated < wanted) {
        return Readiness.inProgress(
            updated
                + " of "
                + wanted
                + " pods above partition "
                + partition
                + " are of the current revision");
      }
      return Readiness.current(
          desired
              + " of "
              + desired
              + " pods are ready, "
              + updated
              + " of the current revision (partition "
              + partition
              + ")");
    }
    if (updated < desired
        || !Objects.equals(status.getCurrentRevision(), status.getUpdateRevision())) {
      return Readiness.inProgress(
          updated
              + " of "
              + desired
              + " pods are of the current revision "
              + status.getUpdateRevision());
    }
    return Readiness.current(
        desired == 0
            ? "scaled to zero"
            : desired + " of " + desired + " pods of the current revision are ready");
  }

  /**
   * The readiness of a DaemonSet's rollout.
   *
   * @param set the DaemonSet, as read from the API server or a cache
   * @return where its rollout stands and why
   */
  public static Readiness of(DaemonSet set) {
    Optional<Readiness> early =
        terminatingOrNotObserved(
            set,
            set.getStatus() == null ? null : set.getStatus().getObservedGeneration(),
            "DaemonSet");
    if (early.isPresent()) {
      return early.get();
    }
    DaemonSetStatus status = set.getStatus();
    int desired = zero(status.getDesiredNumberScheduled());
    int updated = zero(status.getUpdatedNumberScheduled());
    int ready = zero(status.getNumberReady());
    int available = zero(status.getNumberAvailable());
    if (updated < desired) {
      return Readiness.inProgress(
          updated + " of " + desired + " scheduled pods are of the current template");
    }
    if (ready < desired) {
      return Readiness.inProgress(ready + " of " + desired + " scheduled pods are ready");
    }
    if (available < desired) {
      return Readiness.inProgress(available + " of " + desired + " scheduled pods are available");
    }
    return Readiness.current(desired + " of " + desired + " scheduled pods are ready");
  }

  /**
   * Whether a Job has finished: Complete is current, Failed is failed, anything else in progress.
   *
   * @param job the Job, as read from the API server or a cache
   * @return where it stands and why
   */
  public static Readiness of(Job job) {
    if (job.getMetadata() != null && job.getMetadata().getDeletionTimestamp() != null) {
      return terminating("Job");
    }
    JobStatus status = job.getStatus();
    List<JobCondition> conditions = status == null ? List.of() : conditions(status.getConditions());
    for (String failure : List.of("Failed", "FailureTarget")) {
      Optional<JobCondition> failed = trueCondition(conditions, failure);
      if (failed.isPresent()) {
        return Readiness.failed(
            "the Job failed"
                + reasonOf(failed.get().getReason())
                + messageOf(failed.get().getMessage()));
      }
    }
    int succeeded = status == null ? 0 : zero(status.getSucceeded());
    if (trueCondition(conditions, "Complete").isPresent()) {
      return Readiness.current("the Job completed: " + succeeded + " pods succeeded");
    }
    if (job.getSpec() != null && Boolean.TRUE.equals(job.getSpec().getSuspend())) {
      return Readiness.inProgress("the Job is suspended (spec.suspend is true)");
    }
    Integer completions = job.getSpec() == null ? null : job.getSpec().getCompletions();
    int active = status == null ? 0 : zero(status.getActive());
    int failed = status == null ? 0 : zero(status.getFailed());
    return Readiness.inProgress(
        active
            + " pods running, "
            + succeeded
            + " of "
            + (completions == null ? 1 : completions)
            + " completions, "
            + failed
            + " failed");
  }

  /**
   * A Service is current once it has a cluster IP, and for a LoadBalancer an ingress address; an
   * ExternalName Service is always current.
   *
   * @param service the Service, as read from the API server or a cache
   * @return where it stands and why
   */
  public static Readiness of(Service service) {
    if (service.getMetadata() != null && service.getMetadata().getDeletionTimestamp() != null) {
      return terminating("Service");
    }
    var spec = service.getSpec();
    String type = spec == null || spec.getType() == null ? "ClusterIP" : spec.getType();
    if ("ExternalName".equals(type)) {
      return Readiness.current("an alias of " + spec.getExternalName());
    }
    String clusterIp = spec == null ? null : spec.getClusterIP();
    if (clusterIp == null || clusterIp.isBlank()) {
      return Readiness.inProgress("no cluster IP allocated yet");
    }
    if ("LoadBalancer".equals(type)) {
      List<LoadBalancerIngress> ingress =
          service.getStatus() == null
                  || service.getStatus().getLoadBalancer() == null
                  || service.getStatus().getLoadBalancer().getIngress() == null
              ? List.of()
              : service.getStatus().getLoadBalancer().getIngress();
      if (ingress.isEmpty()) {
        return Readiness.inProgress("waiting for the load balancer's address");
      }
      LoadBalancerIngress first = ingress.get(0);
      return Readiness.current(
          "load balancer at " + (first.getIp() != null ? first.getIp() : first.getHostname()));
    }
    return Readiness.current("None".equals(clusterIp) ? "headless" : "cluster IP " + clusterIp);
  }

  /**
   * A claim is current when Bound, failed when its volume is Lost.
   *
   * @param claim the claim, as read from the API server or a cache
   * @return where it stands and why
   */
  public static Readiness of(PersistentVolumeClaim claim) {
    if (claim.getMetadata() != null && claim.getMetadata().getDeletionTimestamp() != null) {
      return terminating("PersistentVolumeClaim");
    }
    String phase = claim.getStatus() == null ? null : claim.getStatus().getPhase();
    String volume = claim.getSpec() == null ? null : claim.getSpec().getVolumeName();
    if ("Bound".equals(phase)) {
      return Readiness.current("bound to volume " + volume);
    }
    if ("Lost".equals(phase)) {
      return Readiness.failed(
          "its volume " + volume + " is lost; recreate the claim or restore" + " the volume");
    }
    return Readiness.inProgress(
        "waiting for a volume (phase " + (phase == null ? "Pending" : phase) + ")");
  }

  private static Optional<Readiness> terminatingOrNotObserved(
      HasMetadata object, Long observedGeneration, String kind) {
    if (object.getMetadata() != null && object.getMetadata().getDeletionTimestamp() != null) {
      return Optional.of(terminating(kind));
    }
    Long generation = object.getMetadata() == null ? null : object.getMetadata().getGeneration();
    if (observedGeneration == null) {
      return Optional.of(
          Readiness.inProgress("the " + kind + " controller has not reported a" + " status yet"));
    }
    if (generation != null && observedGeneration < generation) {
      return Optional.of(
          Readiness.inProgress(
              "the "
                  + kind
                  + " controller has not yet observed"
                  + " generation "
                  + generation
                  + " (last observed "
                  + observedGeneration
                  + ")"));
    }
    return Optional.empty();
  }

  private static Readiness terminating(String kind) {
    return new Readiness(ReadinessState.TERMINATING, "the " + kind + " is being deleted");
  }

  private static Optional<JobCondition> trueCondition(List<JobCondition> conditions, String type) {
    return conditions.stream()
        .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus()))
        .findFirst();
  }

  private static <C> List<C> conditions(List<C> conditions) {
    return conditions == null ? List.of() : conditions;
  }

  private static String reasonOf(String reason) {
    return reason == null || reason.isBlank() ? "" : " (" + reason + ")";
  }

  private static String messageOf(String message) {
    return message == null || message.isBlank() ? "" : ": " + message;
  }

  private static int zero(Integer value) {
    return value == null ? 0 : value;
  }

  private static int orOne(Integer replicas) {
    return replicas == null ? 1 : replicas;
  }
}
