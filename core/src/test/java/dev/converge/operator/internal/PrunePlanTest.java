package dev.converge.operator.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.builder.ControllerBuilder;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PrunePlanTest {

  private static final ServiceAccount PRIMARY =
      new ServiceAccountBuilder()
          .withNewMetadata()
          .withName("shop")
          .withNamespace("ns")
          .withUid("uid-shop")
          .endMetadata()
          .build();

  private static ConfigMap child(String name, String ownerUid, boolean controller) {
    ConfigMapBuilder b =
        new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata();
    if (ownerUid != null) {
      b.editMetadata()
          .addToOwnerReferences(
              new OwnerReferenceBuilder()
                  .withApiVersion("v1")
                  .withKind("ServiceAccount")
                  .withName("owner")
                  .withUid(ownerUid)
                  .withController(controller)
                  .build())
          .endMetadata();
    }
    return b.build();
  }

  private static Set<ChildKey> wanted(HasMetadata... objects) {
    return Set.of(objects).stream()
        .map(o -> ChildKey.of(o, "ns"))
        .collect(java.util.stream.Collectors.toSet());
  }

  private static List<String> names(List<? extends HasMetadata> objects) {
    return objects.stream().map(o -> o.getMetadata().getName()).toList();
  }

  @Test
  void onlyControlledChildrenThatWereNotAppliedArePruned() {
    ConfigMap kept = child("kept", "uid-shop", true);
    ConfigMap dropped = child("dropped", "uid-shop", true);
    ConfigMap otherOwner = child("other-owner", "uid-other", true);
    ConfigMap notController = child("not-controller", "uid-shop", false);
    ConfigMap noReference = child("no-reference", null, false);

    List<ConfigMap> plan =
        PrunePlan.select(
            PRIMARY,
            List.of(kept, dropped, otherOwner, notController, noReference),
            wanted(child("kept", null, false)));

    assertThat(names(plan)).containsExactly("dropped");
  }

  @Test
  void theOptOutAnnotationAndAPendingDeletionKeepAChild() {
    ConfigMap optedOut = child("opted-out", "uid-shop", true);
    optedOut.getMetadata().setAnnotations(Map.of(ControllerBuilder.PRUNE_ANNOTATION, "False"));
    ConfigMap optedIn = child("opted-in", "uid-shop", true);
    optedIn.getMetadata().setAnnotations(Map.of(ControllerBuilder.PRUNE_ANNOTATION, "true"));
    ConfigMap deleting = child("deleting", "uid-shop", true);
    deleting.getMetadata().setDeletionTimestamp("2026-12-04T10:00:00Z");

    assertThat(names(PrunePlan.select(PRIMARY, List.of(optedOut, optedIn, deleting), Set.of())))
        .containsExactly("opted-in");
  }

  @Test
  void appliedMatchesByGroupKindNamespaceAndNameNotByVersionOrClass() {
    Deployment cached =
        new DeploymentBuilder()
            .withNewMetadata()
            .withName("web")
            .withNamespace("ns")
            .addToOwnerReferences(
                new OwnerReferenceBuilder()
                    .withKind("ServiceAccount")
                    .withUid("uid-shop")
                    .withController(true)
                    .build())
            .endMetadata()
            .build();
    HasMetadata appliedAsGeneric =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("apps/v1beta2")
            .withKind("Deployment")
            .withNewMetadata()
            .withName("web") // no namespace: the primary's
            .endMetadata()
            .build();
    HasMetadata sameNameOtherKind = child("web", null, false);
    HasMetadata sameNameOtherNamespace =
        new DeploymentBuilder()
            .withNewMetadata()
            .withName("web")
            .withNamespace("x")
            .endMetadata()
            .build();

    assertThat(PrunePlan.select(PRIMARY, List.of(cached), wanted(appliedAsGeneric))).isEmpty();
    assertThat(
            names(
                PrunePlan.select(
                    PRIMARY, List.of(cached), wanted(sameNameOtherKind, sameNameOtherNamespace))))
        .containsExactly("web");
  }

  @Test
  void aPrimaryWithoutUidPrunesNothing() {
    ServiceAccount unsaved =
        new ServiceAccountBuilder().withNewMetadata().withName("new").endMetadata().build();

    assertThat(PrunePlan.select(unsaved, List.of(child("a", "uid-shop", true)), Set.of()))
        .isEmpty();
  }
}
