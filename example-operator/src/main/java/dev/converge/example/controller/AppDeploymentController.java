package dev.converge.example.controller;

import dev.converge.builder.ControllerBuilder;
import dev.converge.builder.ControllerDefinition;
import dev.converge.example.api.AppDeployment;
import dev.converge.predicate.EventPredicate;
import dev.converge.status.Conditions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Clock;
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

  /** The controller, reconciling as many AppDeployments at once as the operator has workers. */
  public static ControllerDefinition<AppDeployment> definition() {
    return definition(Clock.systemUTC());
  }

  /** The controller with a reconciler stamping conditions with {@code clock}. */
  public static ControllerDefinition<AppDeployment> definition(Clock clock) {
    return ControllerBuilder.forPrimary(AppDeployment.class)
        .named(NAME)
        .withPredicate(EventPredicate.generationChanged())
        .owns(Deployment.class, EventPredicate.resourceVersionChanged())
        .owns(Service.class, EventPredicate.resourceVersionChanged())
        .watchesReferenced(
            ConfigMap.class,
            app -> Stream.ofNullable(app.getSpec().configMapName()).toList(),
            EventPredicate.contentChanged())
        .build(new AppDeploymentReconciler(new Conditions(clock)));
  }
}
