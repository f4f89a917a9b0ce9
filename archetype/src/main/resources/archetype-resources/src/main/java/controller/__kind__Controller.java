package ${package}.controller;

import ${package}.api.Widget;
import dev.converge.builder.ControllerBuilder;
import dev.converge.builder.ControllerDefinition;
import dev.converge.finalizer.CleanupResult;
import dev.converge.finalizer.FinalizerHook;
import dev.converge.finalizer.FinalizingReconciler;
import dev.converge.predicate.EventPredicate;
import dev.converge.status.Conditions;
import io.fabric8.kubernetes.api.model.apps.Deployment;

/**
 * What the Widget controller watches: Widgets (status-only updates ignored) and the Deployments they
 * own. The finalizer holds a Widget's deletion until {@link #cleanUpExternal} has run: the place to
 * release what lives outside the cluster (the Deployment needs no finalizer: the garbage collector
 * deletes it through its owner reference).
 */
public final class WidgetController {

  public static final String NAME = "widget";

  public static final String FINALIZER = "example.com/widget-cleanup";

  private WidgetController() {}

  public static ControllerDefinition<Widget> definition(FinalizerHook<Widget> cleanup) {
    return ControllerBuilder.forPrimary(Widget.class)
        .named(NAME)
        .withPredicate(EventPredicate.generationChanged())
        .owns(Deployment.class)
        .build(FinalizingReconciler.wrap(FINALIZER, cleanup,
            new WidgetReconciler(Conditions.systemClock())));
  }

  /** The cleanup this template ships: an Event on the Widget. Replace it with your own. */
  public static CleanupResult cleanUpExternal(Widget widget, dev.converge.reconcile.Context<Widget> context) {
    context.events().normal(widget, "CleanedUp", "external resources of the widget released");
    return CleanupResult.done();
  }
}
