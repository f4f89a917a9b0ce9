package dev.converge.example.controller;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.api.AppDeploymentStatus;
import dev.converge.example.api.Phase;
import dev.converge.example.desired.ConfigHash;
import dev.converge.example.desired.DesiredDeployment;
import dev.converge.example.desired.DesiredService;
import dev.converge.example.image.ImageReference;
import dev.converge.example.image.InvalidImageReferenceException;
import dev.converge.reconcile.Context;
import dev.converge.reconcile.Reconciler;
import dev.converge.reconcile.Result;
import dev.converge.status.ConditionStatus;
import dev.converge.status.Conditions;
import dev.converge.status.StatusWriter;
import dev.converge.strategy.ApplyResult;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one AppDeployment: its Deployment and ClusterIP Service, the hash of its ConfigMap in
 * the pod template, and its status.
 *
 * <ol>
 *   <li>An image reference that does not parse is a permanent failure: phase Failed, condition
 *       Ready=False/InvalidImage, a Warning event (recorded by the runtime), and no retry until the
 *       spec changes. The running Deployment is left as it is.</li>
 *   <li>A referenced ConfigMap that does not exist: ConfigResolved=False/ConfigMapNotFound naming
 *       it, the Deployment left as it is (a template pointing at a missing ConfigMap would only make
 *       pods that cannot start), a check again in {@value #MISSING_CONFIG_RECHECK_SECONDS} seconds
 *       &mdash; though the ConfigMap watch reconciles at once when it appears.</li>
 *   <li>Otherwise the Deployment and the Service are written through the strategy configured for
 *       their kinds, which sends nothing when they already match.</li>
 *   <li>The status is written only when it differs from what is stored.</li>
 * </ol>
 *
 * No periodic requeue while pods start: every status change of the owned Deployment reconciles the
 * AppDeployment again, so the status follows the pods without polling.
 */
public final class AppDeploymentReconciler implements Reconciler<AppDeployment> {

  /** How long to wait before looking for a missing ConfigMap again (the watch usually wins). */
  public static final int MISSING_CONFIG_RECHECK_SECONDS = 30;

  public static final Duration MISSING_CONFIG_RECHECK = Duration.ofSeconds(MISSING_CONFIG_RECHECK_SECONDS);

  /** Reasons in conditions and events. */
  public static final String REASON_INVALID_IMAGE = "InvalidImage";
  public static final String REASON_CONFIG_MAP_NOT_FOUND = "ConfigMapNotFound";
  public static final String REASON_CONFIG_MAP_FOUND = "ConfigMapFound";
  public static final String REASON_NO_CONFIG_MAP = "NoConfigMapReferenced";
  public static final String REASON_ALL_READY = "AllReplicasReady";
  public static final String REASON_ROLLING_OUT = "RollingOut";

  private static final Logger log = LoggerFactory.getLogger(AppDeploymentReconciler.class);

  private final Conditions conditions;

  public AppDeploymentReconciler(Conditions conditions) {
    this.conditions = Objects.requireNonNull(conditions, "conditions");
  }

  @Override
  public Result reconcile(AppDeployment app, Context<AppDeployment> context) {
    AppDeploymentSpec spec = app.getSpec();
    String key = "AppDeployment " + context.key();

    try {
      ImageReference.parse(spec == null ? null : spec.getImage());
    } catch (InvalidImageReferenceException e) {
      String message = "spec.image: " + e.getMessage()
          + "; fix spec.image, e.g. registry.example.com/team/app:1.2.3";
      Optional<Deployment> current = context.get(Deployment.class, app.getMetadata().getName());
      writeStatus(app, context, Phase.Failed, readyOf(current),
          ConditionStatus.FALSE, REASON_INVALID_IMAGE, message, null);
      return Result.permanentFailure(REASON_INVALID_IMAGE, message);
    }

    Optional<String> configHash = Optional.empty();
    ConfigResolution config;
    if (spec.referencesConfigMap()) {
      Optional<ConfigMap> configMap = context.get(ConfigMap.class, spec.getConfigMapName());
      if (configMap.isEmpty()) {
        String message = "ConfigMap " + context.key().namespace() + "/" + spec.getConfigMapName()
            + " not found; create it or change spec.configMapName";
        context.apply(DesiredService.of(app));
        Optional<Deployment> current = context.get(Deployment.class, app.getMetadata().getName());
        writeStatus(app, context, Phase.Pending, readyOf(current),
            ConditionStatus.FALSE, REASON_CONFIG_MAP_NOT_FOUND, message,
            new ConfigResolution(ConditionStatus.FALSE, REASON_CONFIG_MAP_NOT_FOUND, message));
        log.info("{}: {}; checking again in {} s", key, message, MISSING_CONFIG_RECHECK_SECONDS);
        return Result.requeueAfter(MISSING_CONFIG_RECHECK);
      }
      String hash = ConfigHash.of(configMap.get());
      configHash = Optional.of(hash);
      config = new ConfigResolution(ConditionStatus.TRUE, REASON_CONFIG_MAP_FOUND,
          "ConfigMap " + spec.getConfigMapName() + " (content hash " + hash + ")");
    } else {
      config = new ConfigResolution(ConditionStatus.TRUE, REASON_NO_CONFIG_MAP,
          "spec.configMapName is not set");
    }

    ApplyResult<Deployment> deployment = context.apply(DesiredDeployment.of(app, configHash));
    var service = context.apply(DesiredService.of(app));
    if (deployment.changed() || service.changed()) {
      log.info("{}: Deployment {} ({}), Service {} ({})", key,
          deployment.outcome(), deployment.request(), service.outcome(), service.request());
    }

    Rollout rollout = Rollout.of(deployment.live(), spec.replicasOrDefault());
    if (!rollout.observed() && statusIsCurrent(app)) {
      // The Deployment controller has not yet looked at the Deployment's latest generation (an
      // annotation edit bumps it too, not only our template changes), so its status says nothing
      // new. It will write status when it has, and that event reconciles again; concluding
      // "Pending" now would only flap the Ready condition.
      return Result.done();
    }
    writeStatus(app, context, rollout.complete() ? Phase.Running : Phase.Pending, rollout.ready(),
        ConditionStatus.of(rollout.complete()),
        rollout.complete() ? REASON_ALL_READY : REASON_ROLLING_OUT, rollout.describe(), config);
    return Result.done();
  }

  private record ConfigResolution(ConditionStatus status, String reason, String message) {}

  /**
   * Writes the status computed from {@code app} as read, only when it differs, with the read's
   * resourceVersion: the read comes from the informer cache and may be a step behind our own last
   * status write, and a merge patch computed against a stale copy would silently leave stale
   * fields in place. On 409 Conflict the AppDeployment is read fresh from the API server once and
   * the status computed again from it; a second conflict is thrown and retried by the runtime.
   */
  private void writeStatus(AppDeployment app, Context<AppDeployment> context, Phase phase,
      int readyReplicas, ConditionStatus ready, String readyReason, String readyMessage,
      ConfigResolution config) {
    StatusWriter writer = context.status().withOptimisticLock();
    AppDeploymentStatus wanted =
        wantedStatus(app, phase, readyReplicas, ready, readyReason, readyMessage, config);
    if (wanted.equals(app.getStatus())) {
      return;
    }
    log.debug("AppDeployment {}: status {} -> {}", context.key(), app.getStatus(), wanted);
    try {
      writer.update(app, a -> a.setStatus(wanted));
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        // Deleted since the cache copy was taken: no status to write; the deletion is its own event.
        log.debug("AppDeployment {}: deleted before its status could be written", context.key());
        return;
      }
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      AppDeployment fresh = context.client().resources(AppDeployment.class)
          .inNamespace(context.key().namespace()).withName(context.key().name()).get();
      if (fresh == null || !Objects.equals(fresh.getMetadata().getGeneration(),
          app.getMetadata().getGeneration())) {
        return; // deleted, or a new spec whose own event reconciles it again
      }
      AppDeploymentStatus again =
          wantedStatus(fresh, phase, readyReplicas, ready, readyReason, readyMessage, config);
      if (again.equals(fresh.getStatus())) {
        return;
      }
      writer.update(fresh, a -> a.setStatus(again));
    }
    log.info("AppDeployment {}: phase {}, {} ready, {} {}", context.key(), phase, readyReplicas,
        readyReason, readyMessage);
  }

  private AppDeploymentStatus wantedStatus(AppDeployment app, Phase phase, int readyReplicas,
      ConditionStatus ready, String readyReason, String readyMessage, ConfigResolution config) {
    AppDeploymentStatus current = app.getStatus();
    List<Condition> list = current == null ? List.of() : current.getConditions();
    list = conditions.set(list, app, AppDeploymentStatus.READY, ready, readyReason, readyMessage);
    if (config != null) {
      list = conditions.set(list, app, AppDeploymentStatus.CONFIG_RESOLVED, config.status(),
          config.reason(), config.message());
    }
    AppDeploymentStatus wanted = new AppDeploymentStatus();
    wanted.setPhase(phase);
    wanted.setReadyReplicas(readyReplicas);
    wanted.setConditions(list);
    wanted.setObservedGeneration(app.getMetadata().getGeneration());
    return wanted;
  }

  private static boolean statusIsCurrent(AppDeployment app) {
    return app.getStatus() != null
        && Objects.equals(app.getStatus().getObservedGeneration(), app.getMetadata().getGeneration());
  }

  private static int readyOf(Optional<Deployment> deployment) {
    return deployment.map(d -> Rollout.of(d, 0).ready()).orElse(0);
  }

  /** How far the Deployment's rollout has come, from its status. */
  private record Rollout(boolean observed, int desired, int replicas, int updated, int ready) {

    static Rollout of(Deployment deployment, int desired) {
      DeploymentStatus status = deployment.getStatus();
      Long generation = deployment.getMetadata().getGeneration();
      if (status == null) {
        return new Rollout(false, desired, 0, 0, 0);
      }
      boolean observed = generation == null || (status.getObservedGeneration() != null
          && status.getObservedGeneration() >= generation);
      return new Rollout(observed, desired, zero(status.getReplicas()),
          zero(status.getUpdatedReplicas()), zero(status.getReadyReplicas()));
    }

    /**
     * Every pod is of the current template and ready, and no old pod is left: the moment a person
     * would call the rollout done. (Ready == desired alone is also true in the middle of a rolling
     * update, while the old pods still serve.)
     */
    boolean complete() {
      return observed && updated == desired && ready == desired && replicas == desired;
    }

    String describe() {
      if (complete()) {
        return ready + "/" + desired + " pods of the current template are ready";
      }
      if (!observed) {
        return "the Deployment controller has not yet seen the latest template";
      }
      return ready + "/" + desired + " pods ready, " + updated + " of the current template, "
          + replicas + " in total";
    }

    private static int zero(Integer value) {
      return value == null ? 0 : value;
    }
  }
}
