package ${package}.controller;

import ${package}.api.${kind};
import dev.converge.builder.ControllerBuilder;
import dev.converge.builder.ControllerDefinition;
import dev.converge.finalizer.CleanupResult;
import dev.converge.finalizer.FinalizerHook;
import dev.converge.finalizer.FinalizingReconciler;
import dev.converge.predicate.EventPredicate;
import dev.converge.status.Conditions;
import io.fabric8.kubernetes.api.model.apps.Deployment;

/**
 * What the ${kind} controller watches: ${kind} objects (status-only updates ignored) and the Deployments they
 * own. It prunes: an owned object that a reconcile ending done no longer applied is deleted, so a
 * child you make conditional disappears when the spec stops asking for it (annotate one
 * {@code converge.dev/prune: "false"} to keep it). The finalizer holds a ${kind}'s deletion until {@link #cleanUpExternal} has run: the place to
 * release what lives outside the cluster (the Deployment needs no finalizer: the garbage collector
 * deletes it through its owner reference).
 */
public final class ${kind}Controller {

  public static final String NAME = "${kindLower}";

  public static final String FINALIZER = "${group}/${kindLower}-cleanup";

  private ${kind}Controller() {}

  public static ControllerDefinition<${kind}> definition(FinalizerHook<${kind}> cleanup) {
    return ControllerBuilder.forPrimary(${kind}.class)
        .named(NAME)
        .withPredicate(EventPredicate.generationChanged())
        .owns(Deployment.class)
        .pruneOwned()
        .build(FinalizingReconciler.wrap(FINALIZER, cleanup,
            new ${kind}Reconciler(Conditions.systemClock())));
  }

  /** The cleanup this template ships: an Event on the ${kind}. Replace it with your own. */
  public static CleanupResult cleanUpExternal(${kind} ${kindLower}, dev.converge.reconcile.Context<${kind}> context) {
    context.events().normal(${kindLower}, "CleanedUp", "external resources of the ${kindLower} released");
    return CleanupResult.done();
  }
}
