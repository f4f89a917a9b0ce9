package dev.converge.status.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

/**
 * The body {@link MergePatchStatusWriter} sends, computed from the object as read and as wanted.
 */
class StatusPatchTest {

  private final KubernetesSerialization json = new KubernetesSerialization();

  private static Deployment read() {
    return new DeploymentBuilder()
        .withNewMetadata()
        .withNamespace("ns")
        .withName("web")
        .withResourceVersion("41")
        .endMetadata()
        .withNewSpec()
        .withReplicas(3)
        .endSpec()
        .withNewStatus()
        .withReplicas(3)
        .withReadyReplicas(1)
        .withObservedGeneration(2L)
        .endStatus()
        .build();
  }

  @Test
  void unchangedStatusNeedsNoRequest() {
    Deployment asRead = read();
    Deployment same = json.clone(asRead);

    assertThat(MergePatchStatusWriter.patchFor(json, asRead, same, false)).isEmpty();
    assertThat(MergePatchStatusWriter.patchFor(json, asRead, same, true)).isEmpty();
  }

  @Test
  void onlyTheChangedStatusFieldsAreSent() {
    Deployment asRead = read();
    Deployment wanted = json.clone(asRead);
    wanted.getStatus().setReadyReplicas(3);

    assertThat(MergePatchStatusWriter.patchFor(json, asRead, wanted, false))
        .contains("{\"status\":{\"readyReplicas\":3}}");
  }

  @Test
  void specAndMetadataChangesAreNotPartOfAStatusPatch() {
    Deployment asRead = read();
    Deployment wanted = json.clone(asRead);
    wanted.getSpec().setReplicas(10);
    wanted.getMetadata().setLabels(java.util.Map.of("a", "b"));

    assertThat(MergePatchStatusWriter.patchFor(json, asRead, wanted, false)).isEmpty();

    wanted.getStatus().setReplicas(10);
    assertThat(MergePatchStatusWriter.patchFor(json, asRead, wanted, false))
        .contains("{\"status\":{\"replicas\":10}}");
  }

  @Test
  void optimisticLockCarriesTheResourceVersionAsRead() {
    Deployment asRead = read();
    Deployment wanted = json.clone(asRead);
    wanted.getStatus().setReadyReplicas(2);
    wanted.getMetadata().setResourceVersion("999");

    assertThat(MergePatchStatusWriter.patchFor(json, asRead, wanted, true))
        .contains("{\"metadata\":{\"resourceVersion\":\"41\"},\"status\":{\"readyReplicas\":2}}");
  }

  @Test
  void optimisticLockWithoutResourceVersionIsRefused() {
    Deployment asRead = read();
    asRead.getMetadata().setResourceVersion(null);
    Deployment wanted = json.clone(asRead);
    wanted.getStatus().setReadyReplicas(2);

    assertThatThrownBy(() -> MergePatchStatusWriter.patchFor(json, asRead, wanted, true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Deployment ns/web");
  }

  @Test
  void anEmptyStatusObjectEqualsNoStatus() {
    Deployment asRead = read();
    asRead.setStatus(null);
    Deployment wanted = json.clone(asRead);
    wanted.setStatus(new io.fabric8.kubernetes.api.model.apps.DeploymentStatus());

    assertThat(MergePatchStatusWriter.patchFor(json, asRead, wanted, false)).isEmpty();
  }

  @Test
  void clearedStatusFieldIsDeleted() {
    Deployment asRead = read();
    Deployment wanted = json.clone(asRead);
    wanted.getStatus().setReadyReplicas(null);

    assertThat(MergePatchStatusWriter.patchFor(json, asRead, wanted, false))
        .contains("{\"status\":{\"readyReplicas\":null}}");
  }

  @Test
  void aPatchThatReplacesAListIsLockedToTheVersionItWasBuiltFrom() {
    Deployment asRead = read();
    Deployment wanted = json.clone(asRead);
    wanted
        .getStatus()
        .setConditions(
            java.util.List.of(
                new io.fabric8.kubernetes.api.model.apps.DeploymentConditionBuilder()
                    .withType("Available")
                    .withStatus("True")
                    .build()));

    assertThat(MergePatchStatusWriter.patchFor(json, asRead, wanted, false).orElseThrow())
        .startsWith("{\"metadata\":{\"resourceVersion\":\"41\"},\"status\":{\"conditions\":[");
  }
}
