package dev.converge.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.strategy.ResourceWriteException;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which failures end a reconcile as a refusal, with the API server's own wording of each answer
 * (status code, reason, message), and which are left to the backoff or to the RBAC checks.
 */
class RefusalTest {

  private static KubernetesClientException answer(
      int code, String reason, String message, String kind, String field) {
    StatusBuilder status =
        new StatusBuilder()
            .withStatus("Failure")
            .withCode(code)
            .withReason(reason)
            .withMessage(message);
    if (kind != null) {
      status.withNewDetails().withKind(kind).withName("web").endDetails();
      if (field != null) {
        status
            .editDetails()
            .addNewCause()
            .withField(field)
            .withReason("FieldValueForbidden")
            .withMessage("Forbidden")
            .endCause()
            .endDetails();
      }
    }
    Status built = status.build();
    return new KubernetesClientException(built);
  }

  @Test
  void a422IsAnInvalidRefusalNamingTheField() {
    KubernetesClientException e =
        answer(
            422,
            "Invalid",
            "StatefulSet.apps \"web\" is invalid: spec: Forbidden: updates to statefulset spec for"
                + " fields other than 'replicas', 'ordinals', 'template', 'updateStrategy',"
                + " 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
            "StatefulSet",
            "spec");

    Refusal refusal = Refusal.of(e).orElseThrow();

    assertThat(refusal.reason()).isEqualTo(Refusal.Reason.INVALID);
    assertThat(refusal.reason().condition()).isEqualTo("Invalid");
    assertThat(refusal.reason().tag()).isEqualTo("invalid");
    assertThat(refusal.code()).isEqualTo(422);
    assertThat(refusal.kind()).isEqualTo("StatefulSet");
    assertThat(refusal.fields()).containsExactly("spec");
    assertThat(refusal.message()).contains("HTTP 422").contains("updates to statefulset spec");
  }

  @Test
  void aStrategysWriteExceptionIsFoundInTheCauseChainAndNamesTheObject() {
    KubernetesClientException e =
        answer(
            422,
            "Invalid",
            "Service \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a DNS-1035"
                + " label must consist of lower case alphanumeric characters or '-'",
            "Service",
            "metadata.name");
    ResourceWriteException write =
        ResourceWriteException.of(
            new io.fabric8.kubernetes.api.model.ServiceBuilder()
                .withNewMetadata()
                .withNamespace("shop")
                .withName("Bad_Name")
                .endMetadata()
                .build(),
            "PATCH application/apply-patch+yaml",
            e);

    Refusal refusal = Refusal.of(new IllegalStateException("wrapped", write)).orElseThrow();

    assertThat(refusal.reason()).isEqualTo(Refusal.Reason.INVALID);
    assertThat(refusal.resource()).isEqualTo("Service shop/Bad_Name");
    assertThat(refusal.kind()).isEqualTo("Service");
    assertThat(refusal.fields()).containsExactly("metadata.name");
    assertThat(refusal.message()).contains("metadata.name").contains("DNS-1035");
  }

  @Test
  void anRbac403IsNoRefusal() {
    KubernetesClientException e =
        answer(
            403,
            "Forbidden",
            "deployments.apps \"web\" is forbidden: User \"system:serviceaccount:ops:op\" cannot"
                + " patch resource \"deployments\" in API group \"apps\" in the namespace \"shop\"",
            "deployments",
            null);

    assertThat(Refusal.of(e)).isEmpty();
  }

  @Test
  void aBlockOwnerDeletion403IsRbacToo() {
    KubernetesClientException e =
        answer(
            403,
            "Forbidden",
            "configmaps \"web\" is forbidden: cannot set blockOwnerDeletion if an ownerReference"
                + " refers to a resource you can't set finalizers on: , <nil>",
            "configmaps",
            null);

    assertThat(Refusal.of(e)).isEmpty();
  }

  @Test
  void aQuota403IsQuotaExceeded() {
    KubernetesClientException e =
        answer(
            403,
            "Forbidden",
            "configmaps \"web\" is forbidden: exceeded quota: cm-quota, requested:"
                + " count/configmaps=1, used: count/configmaps=2, limited: count/configmaps=2",
            "configmaps",
            null);

    Refusal refusal = Refusal.of(e).orElseThrow();

    assertThat(refusal.reason()).isEqualTo(Refusal.Reason.QUOTA_EXCEEDED);
    assertThat(refusal.reason().condition()).isEqualTo("QuotaExceeded");
    assertThat(refusal.reason().tag()).isEqualTo("quota-exceeded");
    assertThat(refusal.code()).isEqualTo(403);
    assertThat(refusal.message()).contains("exceeded quota: cm-quota");
  }

  @Test
  void aTerminatingNamespaceAndPodSecurityAndOtherAdmission403sAreNamedAsSuch() {
    assertThat(
            Refusal.of(
                    answer(
                        403,
                        "Forbidden",
                        "configmaps \"web\" is forbidden: unable to create new content in"
                            + " namespace shop because it is being terminated",
                        "configmaps",
                        null))
                .map(Refusal::reason))
        .contains(Refusal.Reason.NAMESPACE_TERMINATING);
    assertThat(
            Refusal.of(
                    answer(
                        403,
                        "Forbidden",
                        "pods \"web\" is forbidden: violates PodSecurity \"restricted:latest\":"
                            + " allowPrivilegeEscalation != false",
                        "pods",
                        null))
                .map(Refusal::reason))
        .contains(Refusal.Reason.POD_SECURITY);
    assertThat(
            Refusal.of(
                    answer(
                        403,
                        "Forbidden",
                        "pods \"web\" is forbidden: maximum cpu usage per Container is 1, but"
                            + " limit is 2",
                        "pods",
                        null))
                .map(Refusal::reason))
        .contains(Refusal.Reason.FORBIDDEN);
  }

  @Test
  void aWebhookDenialIsAdmissionDeniedWhateverItsCode() {
    for (int code : new int[] {400, 403, 422}) {
      KubernetesClientException e =
          answer(
              code,
              "BadRequest",
              "admission webhook \"validate.apps.example.com\" denied the request: replicas must"
                  + " be at most 10",
              null,
              null);
      assertThat(Refusal.of(e).map(Refusal::reason))
          .as("HTTP %s", code)
          .contains(Refusal.Reason.ADMISSION_DENIED);
    }
  }

  @Test
  void conflictsThrottlingServerErrorsAndNetworkFailuresAreNoRefusals() {
    assertThat(
            Refusal.of(
                answer(
                    409,
                    "Conflict",
                    "Operation cannot be fulfilled on configmaps \"web\": the object has been"
                        + " modified; please apply your changes to the latest version and try"
                        + " again",
                    "configmaps",
                    null)))
        .isEmpty();
    assertThat(
            Refusal.of(
                answer(
                    409, "AlreadyExists", "configmaps \"web\" already exists", "configmaps", null)))
        .isEmpty();
    assertThat(
            Refusal.of(
                answer(
                    500,
                    "InternalError",
                    "Internal error occurred: failed calling webhook \"validate.example.com\"",
                    null,
                    null)))
        .isEmpty();
    assertThat(
            Refusal.of(answer(429, "TooManyRequests", "storage is (re)initializing", null, null)))
        .isEmpty();
    assertThat(
            Refusal.of(
                new KubernetesClientException(
                    "Failure executing: PATCH", new IOException("connection reset"))))
        .isEmpty();
    assertThat(
            Refusal.of(
                answer(
                    403,
                    "Forbidden",
                    "configmaps \"web\" is forbidden: status unknown for quota: cm-quota,"
                        + " resource: count/configmaps",
                    "configmaps",
                    null)))
        .as("a quota not yet computed is waited for")
        .isEmpty();
    assertThat(Refusal.of(new IllegalStateException("a bug"))).isEmpty();
    assertThat(Refusal.of(null)).isEqualTo(Optional.empty());
  }

  @Test
  void anUnresolvedConflictOfAStrategyIsNoRefusal() {
    ResourceWriteException exhausted =
        ResourceWriteException.of(
            new ConfigMapBuilder().withNewMetadata().withName("web").endMetadata().build(),
            "PUT",
            answer(409, "Conflict", "the object has been modified", "configmaps", null));

    assertThat(Refusal.of(exhausted)).isEmpty();
  }
}
