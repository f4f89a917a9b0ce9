package dev.converge.example.desired;

import dev.converge.example.api.AppDeployment;
import java.util.Map;

/**
 * Labels and annotation keys the operator puts on what it manages. The selector uses only the
 * instance and managed-by labels: a Deployment's selector is immutable, so it must not include
 * anything that could ever change.
 */
public final class AppLabels {

  /** Value of {@code app.kubernetes.io/managed-by}. */
  public static final String MANAGER = "converge-app-operator";

  public static final String NAME = "app.kubernetes.io/name";
  public static final String INSTANCE = "app.kubernetes.io/instance";
  public static final String MANAGED_BY = "app.kubernetes.io/managed-by";

  /** Pod-template annotation holding the content hash of the referenced ConfigMap. */
  public static final String CONFIG_HASH_ANNOTATION = AppDeployment.GROUP + "/config-hash";

  private AppLabels() {}

  /** The labels selecting the pods of {@code app}. */
  public static Map<String, String> selector(AppDeployment app) {
    return Map.of(INSTANCE, app.getMetadata().getName(), MANAGED_BY, MANAGER);
  }

  /** The labels on the Deployment, the Service and the pods of {@code app}. */
  public static Map<String, String> all(AppDeployment app) {
    return Map.of(
        NAME, "appdeployment", INSTANCE, app.getMetadata().getName(), MANAGED_BY, MANAGER);
  }
}
