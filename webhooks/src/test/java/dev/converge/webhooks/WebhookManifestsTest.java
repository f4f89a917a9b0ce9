package dev.converge.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.crd.CrdGenerator;
import dev.converge.webhooks.build.GenerateWebhookManifests;
import dev.converge.webhooks.sample.Gadget;
import dev.converge.webhooks.sample.GadgetV2;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The configurations and the conversion stanza generated from registrations. */
class WebhookManifestsTest {

  /** The sample's registrations, as a build step loads them. */
  public static final class SampleWebhooks implements Supplier<Webhooks> {
    @Override
    public Webhooks get() {
      return Webhooks.builder()
          .validate(Gadget.class, a -> Verdict.allow())
          .setDefaults(
              Gadget.class,
              (g, a) -> {},
              WebhookOptions.defaults()
                  .withFailurePolicy(FailurePolicy.Ignore)
                  .withTimeoutSeconds(5))
          .convert(
              Gadget.class, GadgetV2.class, new dev.converge.webhooks.sample.GadgetConversion())
          .build();
    }
  }

  @Test
  void theBuildStepWritesConfigurationsAndTheCrdWithConversionForAService(@TempDir Path dir)
      throws Exception {
    Path crds = dir.resolve("crds");
    Files.createDirectories(crds);
    var crd = CrdGenerator.generate(Gadget.class, GadgetV2.class).get(0);
    Files.writeString(crds.resolve(crd.fileName()), crd.yaml());

    List<Path> written =
        GenerateWebhookManifests.run(
            List.of(
                "--webhooks",
                SampleWebhooks.class.getName(),
                "--service",
                "ops/gadget-webhooks:8443",
                "--crds",
                crds.toString(),
                "--output",
                dir.resolve("out").toString(),
                "--inject-ca-from",
                "ops/gadget-webhooks-tls"),
            getClass().getClassLoader());

    assertThat(written)
        .extracting(p -> p.getFileName().toString())
        .containsExactly(
            "gadget-webhooks.validatingwebhookconfiguration.yaml",
            "gadget-webhooks.mutatingwebhookconfiguration.yaml",
            "gadgets.samples.webhooks.converge.dev.yaml");
    KubernetesSerialization yaml = new KubernetesSerialization();
    ValidatingWebhookConfiguration validating =
        yaml.unmarshal(Files.readString(written.get(0)), ValidatingWebhookConfiguration.class);
    ValidatingWebhook v = validating.getWebhooks().get(0);
    assertThat(validating.getMetadata().getAnnotations())
        .containsEntry("cert-manager.io/inject-ca-from", "ops/gadget-webhooks-tls");
    assertThat(v.getName()).isEqualTo("validate-v1.gadgets.samples.webhooks.converge.dev");
    assertThat(v.getClientConfig().getService().getNamespace()).isEqualTo("ops");
    assertThat(v.getClientConfig().getService().getName()).isEqualTo("gadget-webhooks");
    assertThat(v.getClientConfig().getService().getPort()).isEqualTo(8443);
    assertThat(v.getClientConfig().getService().getPath())
        .isEqualTo("/validate/samples.webhooks.converge.dev/v1/gadgets");
    assertThat(v.getFailurePolicy()).isEqualTo("Fail");
    assertThat(v.getSideEffects()).isEqualTo("None");
    assertThat(v.getTimeoutSeconds()).isEqualTo(10);
    assertThat(v.getMatchPolicy()).isEqualTo("Equivalent");
    assertThat(v.getAdmissionReviewVersions()).containsExactly("v1");
    assertThat(v.getRules().get(0).getApiGroups()).containsExactly("samples.webhooks.converge.dev");
    assertThat(v.getRules().get(0).getApiVersions()).containsExactly("v1");
    assertThat(v.getRules().get(0).getResources()).containsExactly("gadgets");
    assertThat(v.getRules().get(0).getOperations()).containsExactly("CREATE", "UPDATE");
    assertThat(v.getRules().get(0).getScope()).isEqualTo("Namespaced");

    MutatingWebhook m =
        yaml.unmarshal(Files.readString(written.get(1)), MutatingWebhookConfiguration.class)
            .getWebhooks()
            .get(0);
    assertThat(m.getName()).isEqualTo("default-v1.gadgets.samples.webhooks.converge.dev");
    assertThat(m.getFailurePolicy()).isEqualTo("Ignore");
    assertThat(m.getTimeoutSeconds()).isEqualTo(5);
    assertThat(m.getReinvocationPolicy()).isEqualTo("Never");

    CustomResourceDefinition converted =
        yaml.unmarshal(Files.readString(written.get(2)), CustomResourceDefinition.class);
    assertThat(converted.getSpec().getConversion().getStrategy()).isEqualTo("Webhook");
    assertThat(converted.getSpec().getConversion().getWebhook().getConversionReviewVersions())
        .containsExactly("v1");
    assertThat(
            converted
                .getSpec()
                .getConversion()
                .getWebhook()
                .getClientConfig()
                .getService()
                .getPath())
        .isEqualTo("/convert/samples.webhooks.converge.dev/gadgets");
    assertThat(converted.getSpec().getVersions())
        .allSatisfy(version -> assertThat(version.getServed()).isTrue());
    assertThat(
            crd.definition().getSpec().getVersions().stream()
                .filter(version -> version.getName().equals("v2"))
                .findFirst()
                .orElseThrow()
                .getServed())
        .as("v2 is not served without the webhook")
        .isFalse();
  }

  @Test
  void optionsOutsideTheApiServersLimitsAreRefused() {
    assertThatThrownBy(() -> WebhookOptions.defaults().withTimeoutSeconds(31))
        .hasMessageContaining("timeoutSeconds must be between 1 and 30");
    assertThatThrownBy(() -> ClientTarget.url("http://127.0.0.1:9443", "pem"))
        .hasMessageContaining("must start with https://");
  }

  @Test
  void aSecondValidatorForOneKindIsRefusedNamingTheFirst() {
    assertThatThrownBy(
            () ->
                Webhooks.builder()
                    .validate(Gadget.class, a -> Verdict.allow())
                    .validate(Gadget.class, a -> Verdict.allow()))
        .hasMessageContaining(
            "a validator for Gadget samples.webhooks.converge.dev/v1 is already" + " registered");
  }
}
