package dev.converge.example.controller;

import dev.converge.builder.ControllerBuilder;
import dev.converge.builder.ControllerDefinition;
import dev.converge.example.api.AppDeployment;
import dev.converge.operator.RunSettings;
import dev.converge.predicate.EventPredicate;
import dev.converge.status.Conditions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.stream.Stream;

/**
 * What the AppDeployment controller watches: the primary filtered by generation (status writes do
 * not come back as reconciles), the Deployment and Service it owns, and the ConfigMap each
 * AppDeployment references, looked up through an index so that a ConfigMap change reconciles
 * exactly the AppDeployments that reference it (rather than listing every AppDeployment of the
 * namespace on every ConfigMap event), and only when its content changed.
 */
public final class AppDeploymentController {

  /** The controller's name in logs and metrics. */
  public static final String NAME = "appdeployment";

  private AppDeploymentController() {}

  /**
   * The controller with a reconciler stamping conditions with the settings' clock, reconciling up
   * to the settings' workers AppDeployments at once.
   */
  public static ControllerDefinition<AppDeployment> definition(RunSettings settings) {
    return ControllerBuilder.forPrimary(AppDeployment.class)
        .named(NAME)
        .withPredicate(EventPredicate.generationChanged())
        .owns(Deployment.class, EventPredicate.resourceVersionChanged())
        .owns(Service.class, EventPredicate.resourceVersionChanged())
        .watchesReferenced(
            ConfigMap.class,
            app -> Stream.ofNullable(app.getSpec().configMapName()).toList(),
            EventPredicate.contentChanged())
        .maxConcurrentReconciles(settings.workers())
        .build(new AppDeploymentReconciler(new Conditions(settings.clock())));
  }
}
