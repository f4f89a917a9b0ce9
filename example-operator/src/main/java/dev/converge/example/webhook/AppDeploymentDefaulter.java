package dev.converge.example.webhook;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.webhooks.Admission;
import dev.converge.webhooks.Defaulter;
import dev.converge.workload.ImageReference;
import dev.converge.workload.InvalidImageReferenceException;

/**
 * Writes the tag a runtime would pull: an image without tag or digest gets {@code :latest}, so
 * {@code kubectl get} shows what runs. (Replicas and port are defaulted by the schema.)
 */
public final class AppDeploymentDefaulter implements Defaulter<AppDeployment> {

  @Override
  public void setDefaults(AppDeployment app, Admission<AppDeployment> admission) {
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
