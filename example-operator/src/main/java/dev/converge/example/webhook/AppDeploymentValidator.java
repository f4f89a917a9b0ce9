package dev.converge.example.webhook;

import dev.converge.example.api.AppDeployment;
import dev.converge.webhooks.Admission;
import dev.converge.webhooks.Operation;
import dev.converge.webhooks.Validator;
import dev.converge.webhooks.Verdict;
import dev.converge.workload.ImageReference;
import dev.converge.workload.InvalidImageReferenceException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;

/**
 * What the CRD's schema cannot say about an AppDeployment:
 *
 * <ul>
 *   <li>{@code spec.image} follows the image reference grammar (the operator's own parser);
 *   <li>on create, no Deployment or Service of the same name exists that another controller (or
 *       nobody) owns: the operator would fail on it for ever;
 *   <li>a {@code spec.configMapName} that does not exist yet is allowed with a warning (the
 *       AppDeployment stays Pending until it appears).
 * </ul>
 */
public final class AppDeploymentValidator implements Validator<AppDeployment> {

  /** Reads one object of the namespace, or empty. */
  public interface Lookup {
    Optional<HasMetadata> find(String kind, String namespace, String name);

    /** Deployments and Services by kind, anything else as a ConfigMap, read with {@code client}. */
    static Lookup of(KubernetesClient client) {
      return (kind, namespace, name) ->
          Optional.ofNullable(
              switch (kind) {
                case "Deployment" ->
                    client.apps().deployments().inNamespace(namespace).withName(name).get();
                case "Service" -> client.services().inNamespace(namespace).withName(name).get();
                default ->
                    (HasMetadata) client.configMaps().inNamespace(namespace).withName(name).get();
              });
    }
  }

  private final Lookup lookup;

  public AppDeploymentValidator(Lookup lookup) {
    this.lookup = lookup;
  }

  @Override
  public Verdict validate(Admission<AppDeployment> admission) {
    AppDeployment app = admission.object();
    if (app.getSpec() == null) {
      return Verdict.deny("spec", "spec is required");
    }
    try {
      ImageReference.parse(app.getSpec().image());
    } catch (InvalidImageReferenceException e) {
      return Verdict.deny("spec.image", e.getMessage());
    }
    if (admission.operation() == Operation.CREATE) {
      for (String kind : new String[] {"Deployment", "Service"}) {
        Optional<HasMetadata> existing = lookup.find(kind, admission.namespace(), admission.name());
        if (existing.isPresent() && !ownedByAnAppDeployment(existing.get())) {
          return Verdict.deny(
              "metadata.name",
              kind
                  + " "
                  + admission.namespace()
                  + "/"
                  + admission.name()
                  + " already exists and no AppDeployment controls it; the operator"
                  + " would not take it over. Choose another name or delete the "
                  + kind);
        }
      }
    }
    String configMap = app.getSpec().configMapName();
    if (app.getSpec().referencesConfigMap()
        && lookup.find("ConfigMap", admission.namespace(), configMap).isEmpty()) {
      return Verdict.allowWithWarnings(
          "ConfigMap "
              + admission.namespace()
              + "/"
              + configMap
              + " does not exist yet; the AppDeployment stays Pending until it does");
    }
    return Verdict.allow();
  }

  private static boolean ownedByAnAppDeployment(HasMetadata object) {
    return object.getMetadata().getOwnerReferences().stream()
        .anyMatch(o -> Boolean.TRUE.equals(o.getController()) && isAppDeployment(o));
  }

  private static boolean isAppDeployment(OwnerReference owner) {
    return "AppDeployment".equals(owner.getKind())
        && owner.getApiVersion().startsWith(AppDeployment.GROUP + "/");
  }
}
