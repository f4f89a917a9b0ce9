package dev.converge.example.webhook;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.operator.ShardLabeller;
import dev.converge.webhooks.Admission;
import dev.converge.webhooks.Defaulter;
import dev.converge.webhooks.Operation;
import dev.converge.workload.ImageReference;
import dev.converge.workload.InvalidImageReferenceException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Writes the tag a runtime would pull: an image without tag or digest gets {@code :latest}, so
 * {@code kubectl get} shows what runs. (Replicas and port are defaulted by the schema.) When the
 * operator runs sharded, a new AppDeployment also gets its shard label here, so that it is stored
 * already assigned to a replica and the sharder need not write it again.
 */
public final class AppDeploymentDefaulter implements Defaulter<AppDeployment> {

  private final Optional<ShardLabeller> shards;

  /** The defaulter of an operator that is not sharded: image tags only. */
  public AppDeploymentDefaulter() {
    this(Optional.empty());
  }

  /**
   * The defaulter, labelling new AppDeployments for their replica when {@code shards} is present.
   *
   * @param shards the sharded operator's labeller; empty when the operator is not sharded
   */
  public AppDeploymentDefaulter(Optional<ShardLabeller> shards) {
    this.shards = Objects.requireNonNull(shards, "shards");
  }

  @Override
  public void setDefaults(AppDeployment app, Admission<AppDeployment> admission) {
    defaultImageTag(app);
    if (admission.operation() == Operation.CREATE) {
      // Only at creation: from then on the sharder owns the label and moves it through hand-overs.
      shards.ifPresent(labeller -> label(app, labeller.labelsFor(app)));
    }
  }

  private static void label(AppDeployment app, Map<String, String> shardLabels) {
    if (shardLabels.isEmpty()) {
      return; // no live replica known yet, or already labelled: the sharder assigns it
    }
    Map<String, String> labels = new HashMap<>();
    if (app.getMetadata().getLabels() != null) {
      labels.putAll(app.getMetadata().getLabels());
    }
    labels.putAll(shardLabels);
    app.getMetadata().setLabels(labels);
  }

  private static void defaultImageTag(AppDeployment app) {
    AppDeploymentSpec spec = app.getSpec();
    if (spec == null || spec.image() == null) {
      return;
    }
    try {
      ImageReference image = ImageReference.parse(spec.image());
      if (image.tagName().isEmpty() && image.digestValue().isEmpty()) {
        app.setSpec(
            new AppDeploymentSpec(
                spec.image() + ":latest", spec.replicas(), spec.configMapName(), spec.port()));
      }
    } catch (InvalidImageReferenceException e) {
      // Left as written: the validator refuses it with the parser's reason.
    }
  }
}
