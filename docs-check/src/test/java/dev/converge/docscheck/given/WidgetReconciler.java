package dev.converge.docscheck.given;

import dev.converge.reconcile.Context;
import dev.converge.reconcile.Reconciler;
import dev.converge.reconcile.Result;

/**
 * The reconciler of {@link Widget}s the READMEs hand to a controller. A README that shows how a
 * reconciler is written declares its own, which takes the place of this one for that README.
 */
public final class WidgetReconciler implements Reconciler<Widget> {

  @Override
  public Result reconcile(Widget widget, Context<Widget> context) {
    return Result.done();
  }
}
