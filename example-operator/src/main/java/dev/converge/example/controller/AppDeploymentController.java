package dev.converge.example.controller;

import dev.converge.builder.ControllerBuilder;
import dev.converge.builder.ControllerDefinition;
import dev.converge.example.api.AppDeployment;
import dev.converge.handler.MappingFunction;
import dev.converge.predicate.EventPredicate;
import dev.converge.reconcile.ObjectKey;
import dev.converge.source.Caches;
import dev.converge.status.Conditions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import java.util.Objects;

/**
 * What the AppDeployment controller watches, as the seeds wire it: the primary filtered by
 * generation (status writes do not come back as reconciles), the Deployment and Service it owns,
 * and ConfigMaps through a mapping function backed by an index, so a ConfigMap change reconciles
 * exactly the AppDeployments in its namespace that reference it (the seeds list every
 * AppDeployment of the namespace on every ConfigMap event).
 */
public final class AppDeploymentController {

  /** The controller's name in logs and metrics. */
  public static final String NAME = "appdeployment";

  /** Index on the AppDeployment cache: {@code namespace/configMapName} of the referenced ConfigMap. */
  public static final String BY_CONFIG_MAP = "appdeployments-by-configmap";

  private AppDeploymentController() {}

  /** The controller with a reconciler using {@code conditions} for timestamps. */
  public static ControllerDefinition<AppDeployment> definition(Conditions conditions) {
    Objects.requireNonNull(conditions, "conditions");
    return ControllerBuilder.forPrimary(AppDeployment.class)
        .named(NAME)
        .withPredicate(EventPredicate.generationChanged())
        .owns(Deployment.class, EventPredicate.resourceVersionChanged())
        .owns(Service.class, EventPredicate.resourceVersionChanged())
        .index(AppDeployment.class, BY_CONFIG_MAP, AppDeploymentController::referencedConfigMap)
        .watches(ConfigMap.class, (MappingFunction<ConfigMap>) AppDeploymentController::usersOf,
            EventPredicate.<ConfigMap>custom()
                .onUpdate((before, after) -> !Objects.equals(before.getData(), after.getData())
                    || !Objects.equals(before.getBinaryData(), after.getBinaryData()))
                .build())
        .build(new AppDeploymentReconciler(conditions));
  }

  /** The AppDeployments that reference {@code configMap}, looked up in the index. */
  static List<ObjectKey> usersOf(ConfigMap configMap, Caches caches) {
    return caches.of(AppDeployment.class)
        .byIndex(BY_CONFIG_MAP,
            keyOf(configMap.getMetadata().getNamespace(), configMap.getMetadata().getName()))
        .stream().map(ObjectKey::of).toList();
  }

  /** The index keys of {@code app}: the ConfigMap it references, if any. */
  static List<String> referencedConfigMap(AppDeployment app) {
    if (app.getSpec() == null || !app.getSpec().referencesConfigMap()) {
      return List.of();
    }
    return List.of(keyOf(app.getMetadata().getNamespace(), app.getSpec().getConfigMapName()));
  }

  private static String keyOf(String namespace, String name) {
    return namespace + "/" + name;
  }
}
