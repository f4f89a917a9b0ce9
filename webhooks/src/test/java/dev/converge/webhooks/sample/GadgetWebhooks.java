package dev.converge.webhooks.sample;

import dev.converge.webhooks.Admission;
import dev.converge.webhooks.Verdict;
import dev.converge.webhooks.WebhookOptions;
import dev.converge.webhooks.Webhooks;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashMap;

/**
 * The sample's webhooks: a validator that needs the cluster (the ConfigMap must exist) and has two
 * misbehaving inputs for the tests (a colour that throws, one that hangs), a defaulter (colour and
 * a label), and the v1/v2 converter.
 */
public final class GadgetWebhooks {

  public static final String THROWS = "throws";
  public static final String HANGS = "hangs";

  private GadgetWebhooks() {}

  /** Registered for objects in {@code namespace} only, so that other tests are not affected. */
  public static Webhooks create(KubernetesClient client, String namespace) {
    WebhookOptions options =
        WebhookOptions.defaults()
            .withTimeoutSeconds(3)
            .withNamespaceSelector(
                new LabelSelectorBuilder()
                    .addToMatchLabels("kubernetes.io/metadata.name", namespace)
                    .build());
    return Webhooks.builder()
        .validate(Gadget.class, admission -> validate(client, admission), options)
        .setDefaults(
            Gadget.class,
            (gadget, admission) -> {
              if (gadget.getSpec().color() == null) {
                gadget.setSpec(
                    new GadgetSpec(
                        "blue", gadget.getSpec().port(), gadget.getSpec().configMapName()));
              }
              HashMap<String, String> labels = new HashMap<>();
              if (gadget.getMetadata().getLabels() != null) {
                labels.putAll(gadget.getMetadata().getLabels());
              }
              labels.put("samples.webhooks.converge.dev/defaulted", "true");
              gadget.getMetadata().setLabels(labels);
            },
            options)
        .convert(Gadget.class, GadgetV2.class, new GadgetConversion())
        .build();
  }

  private static Verdict validate(KubernetesClient client, Admission<Gadget> admission) {
    GadgetSpec spec = admission.object().getSpec();
    if (THROWS.equals(spec.color())) {
      throw new IllegalStateException("the colour service is unreachable");
    }
    if (HANGS.equals(spec.color())) {
      try {
        Thread.sleep(60_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return Verdict.allow();
    }
    if (spec.configMapName() != null
        && client
                .configMaps()
                .inNamespace(admission.namespace())
                .withName(spec.configMapName())
                .get()
            == null) {
      return Verdict.deny(
          "spec.configMapName",
          "ConfigMap "
              + admission.namespace()
              + "/"
              + spec.configMapName()
              + " does not exist; create it first");
    }
    if (spec.port() != null && spec.port() < 1024) {
      return Verdict.allowWithWarnings(
          "spec.port "
              + spec.port()
              + " is privileged; the container must run as root to listen on it");
    }
    return Verdict.allow();
  }
}
