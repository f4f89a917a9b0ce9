package dev.converge.example.controller;

import static dev.converge.example.api.AppDeploymentStatus.CONFIG_RESOLVED;
import static dev.converge.example.api.AppDeploymentStatus.READY;
import static dev.converge.status.ConditionStatus.FALSE;
import static dev.converge.status.ConditionStatus.TRUE;

import dev.converge.confighash.ConfigHash;
import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.api.AppDeploymentStatus;
import dev.converge.example.api.Phase;
import dev.converge.example.desired.DesiredDeployment;
import dev.converge.example.desired.DesiredService;
import dev.converge.reconcile.Context;
import dev.converge.reconcile.Reconciler;
import dev.converge.reconcile.Refusal;
import dev.converge.reconcile.Result;
import dev.converge.status.ConditionStatus;
import dev.converge.status.Conditions;
import dev.converge.status.WantedConditions;
import dev.converge.strategy.ApplyResult;
import dev.converge.workload.ImageReference;
import dev.converge.workload.InvalidImageReferenceException;
import dev.converge.workload.Readiness;
import dev.converge.workload.WorkloadReadiness;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reconciles one AppDeployment: its Deployment and ClusterIP Service, the hash of its ConfigMap in
 * the pod template, and its status.
 *
 * <ol>
 *   <li>An image reference that does not parse is a permanent failure: phase Failed, condition
 *       Ready=False/InvalidImage, a Warning event (recorded by the runtime), and no retry until the
 *       spec changes. The running Deployment is left as it is.
 *   <li>A referenced ConfigMap that does not exist: ConfigResolved=False/ConfigMapNotFound naming
 *       it, the Deployment left as it is (a template pointing at a missing ConfigMap would only
 *       make pods that cannot start), a check again in {@value #MISSING_CONFIG_RECHECK_SECONDS}
 *       seconds &mdash; though the ConfigMap watch reconciles at once when it appears.
 *   <li>Otherwise the Deployment and the Service are written through the strategy configured for
 *       them, which sends nothing when they already match; {@code Context.apply} makes the
 *       AppDeployment their controller owner. A write the API server refuses as such (a name too
 *       long for a label or no DNS-1035 label for the Service, say) is left to the runtime, which
 *       reports it (condition {@code Reconciled=False}, a Warning event) and does not retry it
 *       until the spec changes; the reconciler only adds phase Failed and Ready=False with the
 *       refusal's reason, so that the printer columns say it too.
 *   <li>The status is computed from the AppDeployment and written only when it differs ({@code
 *       Context.updateStatus}, which also recomputes it from a fresh read on a conflict): the
 *       conditions this reconcile wants ({@code Conditions.want}) folded into the stored ones, with
 *       the AppDeployment's generation as observedGeneration.
 * </ol>
 *
 * No periodic requeue while pods start: every status change of the owned Deployment reconciles the
 * AppDeployment again, so the status follows the pods without polling. Until the Deployment
 * controller has observed the Deployment's latest generation the status is left as it is (a new
 * AppDeployment has none for those moments): the Deployment's own status write brings the reconcile
 * that reports it.
 */
public final class AppDeploymentReconciler implements Reconciler<AppDeployment> {

  /** How long to wait before looking for a missing ConfigMap again (the watch usually wins). */
  public static final int MISSING_CONFIG_RECHECK_SECONDS = 30;

  public static final String REASON_INVALID_IMAGE = "InvalidImage";

  public static final String REASON_CONFIG_MAP_NOT_FOUND = "ConfigMapNotFound";

  private final Conditions conditions;

  public AppDeploymentReconciler(Conditions conditions) {
    this.conditions = Objects.requireNonNull(conditions, "conditions");
  }

  @Override
  public Result reconcile(AppDeployment app, Context<AppDeployment> context) {
    AppDeploymentSpec spec = app.getSpec();
    String name = app.getMetadata().getName();
    int ready = context.get(Deployment.class, name).map(WorkloadReadiness::readyReplicas).orElse(0);
    try {
      ImageReference.parse(spec == null ? null : spec.image()); // the CRD requires spec
    } catch (InvalidImageReferenceException e) {
      String message =
          "spec.image: "
              + e.getMessage()
              + "; fix spec.image, e.g. registry.example.com/team/app:1.2.3";
      return failed(context, app, ready, REASON_INVALID_IMAGE, message);
    }
    Optional<String> hash = Optional.empty();
    WantedConditions config =
        conditions.want(
            CONFIG_RESOLVED, TRUE, "NoConfigMapReferenced", "spec.configMapName is not set");
    if (spec.referencesConfigMap()) {
      Optional<ConfigMap> configMap = context.get(ConfigMap.class, spec.configMapName());
      if (configMap.isEmpty()) {
        String message =
            "ConfigMap "
                + context.key().namespace()
                + "/"
                + spec.configMapName()
                + " not found; create it or change spec.configMapName";
        applyOrReport(context, app, ready, DesiredService.of(app));
        WantedConditions missing =
            conditions
                .want(READY, FALSE, REASON_CONFIG_MAP_NOT_FOUND, message)
                .and(CONFIG_RESOLVED, FALSE, REASON_CONFIG_MAP_NOT_FOUND, message);
        context.updateStatus(app, status(Phase.Pending, ready, missing));
        return Result.requeueAfter(Duration.ofSeconds(MISSING_CONFIG_RECHECK_SECONDS));
      }
      hash = Optional.of(ConfigHash.of(configMap.get()));
      String message = "ConfigMap " + spec.configMapName() + " (content hash " + hash.get() + ")";
      config = conditions.want(CONFIG_RESOLVED, TRUE, "ConfigMapFound", message);
    }
    Deployment deployment =
        applyOrReport(context, app, ready, DesiredDeployment.of(app, hash)).live();
    applyOrReport(context, app, ready, DesiredService.of(app));
    if (!WorkloadReadiness.hasObservedLatest(deployment)) {
      // The Deployment controller has not yet looked at the latest generation (a new Deployment,
      // or an edit of its template), so its status says nothing new; its next status write
      // reconciles again, within moments. Writing a status now would only be overwritten then:
      // one status write per new AppDeployment instead of two.
      return Result.done();
    }
    Readiness rollout = WorkloadReadiness.of(deployment);
    boolean running = rollout.isCurrent();
    String reason = running ? "AllReplicasReady" : "RollingOut";
    WantedConditions wanted =
        conditions.want(READY, ConditionStatus.of(running), reason, rollout.message()).and(config);
    Phase phase = running ? Phase.Running : Phase.Pending;
    context.updateStatus(app, status(phase, WorkloadReadiness.readyReplicas(deployment), wanted));
    return Result.done();
  }

  /**
   * Applies {@code desired}; when the API server refuses it as such, says so in the status (phase
   * Failed, Ready=False with the refusal's reason) and lets the exception go on to the runtime,
   * which records the rest and waits for a new spec.
   */
  private <R extends HasMetadata> ApplyResult<R> applyOrReport(
      Context<AppDeployment> context, AppDeployment app, int ready, R desired) {
    try {
      return context.apply(desired);
    } catch (RuntimeException e) {
      Optional<Refusal> refused = Refusal.of(e);
      if (refused.isPresent()) {
        WantedConditions failed =
            conditions.want(
                READY, FALSE, refused.get().reason().condition(), refused.get().message());
        context.updateStatus(app, status(Phase.Failed, ready, failed));
      }
      throw e;
    }
  }

  /** Reports a spec that cannot be realised: phase Failed, Ready=False, no retry. */
  private Result failed(
      Context<AppDeployment> context, AppDeployment app, int ready, String reason, String text) {
    context.updateStatus(
        app, status(Phase.Failed, ready, conditions.want(READY, FALSE, reason, text)));
    return Result.permanentFailure(reason, text);
  }

  /**
   * The status computation for {@code Context.updateStatus}, which writes it only when it differs
   * from the stored one and recomputes it from a fresh read on a conflict.
   */
  private static Consumer<AppDeployment> status(Phase phase, int ready, WantedConditions wanted) {
    return wanted.status((list, gen) -> new AppDeploymentStatus(phase, ready, list, gen));
  }
}
