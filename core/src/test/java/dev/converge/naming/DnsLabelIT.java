package dev.converge.naming;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.testing.LocalClusterExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The API server is the judge. A Namespace name is accepted exactly when it is an RFC 1123 label. A
 * Service name that is an RFC 1035 label is accepted by every API server, and one that is not even
 * an RFC 1123 label by none; in between (a leading digit) depends on the server's
 * RelaxedServiceNameValidation feature, so the test does not judge those. Each candidate is created
 * with a server-side dry run, so nothing is stored.
 */
@ExtendWith(LocalClusterExtension.class)
class DnsLabelIT {

  private static final List<String> CANDIDATES =
      List.of(
          "web",
          "a",
          "web-2",
          "w-e-b",
          "2web",
          "-web",
          "web-",
          "Web",
          "web.v2",
          "web_2",
          "a".repeat(63),
          "a".repeat(64),
          "x" + "1".repeat(62),
          "é");

  private static boolean serverAccepts(Runnable create) {
    try {
      create.run();
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() != 422) {
        throw e;
      }
      return false;
    }
  }

  @Test
  void rfc1035ServiceNamesAreAcceptedAndNonRfc1123OnesRefused(KubernetesClient client) {
    for (String name : CANDIDATES) {
      boolean accepted =
          serverAccepts(
              () ->
                  client
                      .resource(
                          new ServiceBuilder()
                              .withNewMetadata()
                              .withName(name)
                              .withNamespace(client.getNamespace())
                              .endMetadata()
                              .withNewSpec()
                              .addNewPort()
                              .withPort(80)
                              .endPort()
                              .endSpec()
                              .build())
                      .dryRun()
                      .create());
      if (DnsLabel.isRfc1035(name)) {
        assertThat(accepted).as("RFC 1035 Service name '%s' accepted", name).isTrue();
      } else if (!DnsLabel.isRfc1123(name)) {
        assertThat(accepted).as("non-RFC 1123 Service name '%s' refused", name).isFalse();
      }
    }
  }

  @Test
  void namespaceNamesAreAcceptedExactlyWhenTheyAreRfc1123Labels(KubernetesClient client) {
    for (String name : CANDIDATES) {
      boolean accepted =
          serverAccepts(
              () ->
                  client
                      .resource(
                          new NamespaceBuilder()
                              .withNewMetadata()
                              .withName(name)
                              .endMetadata()
                              .build())
                      .dryRun()
                      .create());
      assertThat(DnsLabel.isRfc1123(name)).as("Namespace name '%s'", name).isEqualTo(accepted);
    }
  }
}
