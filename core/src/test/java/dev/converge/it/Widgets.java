package dev.converge.it;

import dev.converge.reconcile.Context;
import dev.converge.status.ConditionStatus;
import dev.converge.status.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.CustomResource;
import java.util.Optional;
import java.util.function.Consumer;

/** Small helpers shared by the integration tests' reconcilers and assertions. */
public final class Widgets {

  private Widgets() {}

  private static final Conditions CONDITIONS = Conditions.systemClock();

  /** Writes the Ready condition and observedGeneration (no request when already so). */
  public static <W extends CustomResource<WidgetSpec, WidgetStatus>> void setReady(
      Context<W> context, W widget, ConditionStatus status, String reason, String message) {
    setReady(context, widget, status, reason, message, s -> {});
  }

  /** Like the other, with more status changes written in the same patch. */
  public static <W extends CustomResource<WidgetSpec, WidgetStatus>> void setReady(
      Context<W> context,
      W widget,
      ConditionStatus status,
      String reason,
      String message,
      Consumer<WidgetStatus> more) {
    context
        .status()
        .update(
            widget,
            copy -> {
              WidgetStatus s = copy.getStatus() == null ? new WidgetStatus() : copy.getStatus();
              more.accept(s);
              s.setObservedGeneration(copy.getMetadata().getGeneration());
              s.setConditions(
                  CONDITIONS.set(s.getConditions(), copy, "Ready", status, reason, message));
              copy.setStatus(s);
            });
  }

  /** The Ready condition of {@code widget}, if any. */
  public static Optional<Condition> ready(CustomResource<WidgetSpec, WidgetStatus> widget) {
    if (widget == null
        || widget.getStatus() == null
        || widget.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return widget.getStatus().getConditions().stream()
        .filter(c -> "Ready".equals(c.getType()))
        .findFirst();
  }

  public static boolean isReady(CustomResource<WidgetSpec, WidgetStatus> widget) {
    return ready(widget).map(c -> "True".equals(c.getStatus())).orElse(false);
  }
}
