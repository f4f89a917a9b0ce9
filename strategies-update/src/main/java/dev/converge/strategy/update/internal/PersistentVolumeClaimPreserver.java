package dev.converge.strategy.update.internal;

import dev.converge.schema.ApiKind;
import dev.converge.strategy.ServerFieldPreserver;
import java.util.List;
import java.util.Map;

/**
 * Keeps the bound volume ({@code volumeName}) and the defaulted {@code storageClassName} and {@code
 * volumeMode} of a PersistentVolumeClaim, all of which are immutable once set.
 */
public final class PersistentVolumeClaimPreserver implements ServerFieldPreserver {

  private static final ApiKind PVC = new ApiKind("v1", "PersistentVolumeClaim");

  @Override
  public boolean appliesTo(ApiKind kind) {
    return PVC.equals(kind);
  }

  @Override
  public void preserve(Map<String, Object> live, Map<String, Object> outgoing) {
    for (String field : List.of("volumeName", "storageClassName", "volumeMode")) {
      ServerFieldPreserver.keepIfUnset(live, outgoing, "spec", field);
    }
  }
}
