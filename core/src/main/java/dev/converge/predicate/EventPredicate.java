package dev.converge.predicate;

import dev.converge.predicate.internal.LabelSelectorMatcher;
import dev.converge.source.ResourceEvent;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Decides whether an event should reach the work queue at all. Filtering early is the cheapest way
 * to keep a controller quiet: a status-only update of the primary, for instance, need not cause a
 * reconcile when the reconciler only reacts to spec changes ({@link #generationChanged()}).
 *
 * <p>Compose with {@link #and}, {@link #or}, {@link #not}; write per-event-type logic with {@link
 * #custom()}.
 *
 * @param <T> the kind the predicate understands
 */
@FunctionalInterface
public interface EventPredicate<T extends HasMetadata> {

  /**
   * Decides one event. Called for every event of the watched kind on the thread that delivers
   * events, so it must be quick and must not block; it must not change the event's objects (see
   * {@link ResourceEvent}). An exception drops the event and is reported against the object in the
   * operator's health, without affecting other objects.
   *
   * @param event the change the informer delivered
   * @return true to let the event through to the handler, false to drop it
   */
  boolean test(ResourceEvent<? extends T> event);

  /**
   * Lets an event through only when this predicate and {@code other} both do; {@code other} is not
   * asked when this one already drops the event.
   *
   * @param other the second predicate
   * @return the conjunction of the two
   */
  default EventPredicate<T> and(EventPredicate<? super T> other) {
    Objects.requireNonNull(other, "other");
    return event -> test(event) && other.test(event);
  }

  /**
   * Lets an event through when this predicate or {@code other} does; {@code other} is not asked
   * when this one already lets the event through.
   *
   * @param other the second predicate
   * @return the disjunction of the two
   */
  default EventPredicate<T> or(EventPredicate<? super T> other) {
    Objects.requireNonNull(other, "other");
    return event -> test(event) || other.test(event);
  }

  /**
   * Lets every event through: the default of a watch without a predicate.
   *
   * @param <T> the kind
   * @return a predicate that is always true
   */
  static <T extends HasMetadata> EventPredicate<T> always() {
    return event -> true;
  }

  /**
   * Lets through exactly the events {@code predicate} drops.
   *
   * @param <T> the kind
   * @param predicate the predicate to invert
   * @return the negation of {@code predicate}
   */
  static <T extends HasMetadata> EventPredicate<T> not(EventPredicate<T> predicate) {
    Objects.requireNonNull(predicate, "predicate");
    return event -> !predicate.test(event);
  }

  /**
   * True when every one of {@code predicates} is (true for an empty list); they are asked in order
   * and the first false ends the test.
   *
   * @param <T> the kind
   * @param predicates the predicates, none of them null
   * @return the conjunction of all of them
   * @throws NullPointerException when one of {@code predicates} is null
   */
  @SafeVarargs
  static <T extends HasMetadata> EventPredicate<T> allOf(EventPredicate<? super T>... predicates) {
    List<EventPredicate<? super T>> all = new java.util.ArrayList<>(predicates.length);
    for (EventPredicate<? super T> p : predicates) {
      all.add(Objects.requireNonNull(p, "predicate"));
    }
    return event -> all.stream().allMatch(p -> p.test(event));
  }

  /**
   * True when at least one of {@code predicates} is (false for an empty list); they are asked in
   * order and the first true ends the test.
   *
   * @param <T> the kind
   * @param predicates the predicates, none of them null
   * @return the disjunction of all of them
   * @throws NullPointerException when one of {@code predicates} is null
   */
  @SafeVarargs
  static <T extends HasMetadata> EventPredicate<T> anyOf(EventPredicate<? super T>... predicates) {
    List<EventPredicate<? super T>> all = new java.util.ArrayList<>(predicates.length);
    for (EventPredicate<? super T> p : predicates) {
      all.add(Objects.requireNonNull(p, "predicate"));
    }
    return event -> all.stream().anyMatch(p -> p.test(event));
  }

  /**
   * Updates pass only when {@code metadata.generation} changed, which the API server bumps on spec
   * changes and not on status or metadata changes, or when the object starts being deleted (its
   * {@code deletionTimestamp} appears), so that finalizer cleanup always runs; other event types
   * pass. Kinds that do not track a generation (ConfigMap, Secret) therefore pass on update only
   * when deletion starts: use {@link #resourceVersionChanged()} for them.
   *
   * @param <T> the kind
   * @return a predicate on generation changes and deletion starts
   */
  static <T extends HasMetadata> EventPredicate<T> generationChanged() {
    return onUpdateOnly(
        (oldObj, newObj) -> {
          if (oldObj.getMetadata().getDeletionTimestamp() == null
              && newObj.getMetadata().getDeletionTimestamp() != null) {
            return true;
          }
          Long before = oldObj.getMetadata().getGeneration();
          Long after = newObj.getMetadata().getGeneration();
          return before != null && after != null && !before.equals(after);
        });
  }

  /**
   * Updates pass only when the resourceVersion changed; this drops the identical updates an
   * informer resync delivers. Other event types pass.
   *
   * @param <T> the kind
   * @return a predicate on resourceVersion changes
   */
  static <T extends HasMetadata> EventPredicate<T> resourceVersionChanged() {
    return onUpdateOnly(
        (oldObj, newObj) ->
            !Objects.equals(
                oldObj.getMetadata().getResourceVersion(),
                newObj.getMetadata().getResourceVersion()));
  }

  /**
   * Updates pass only when the labels changed (absent and empty are the same); other event types
   * pass.
   *
   * @param <T> the kind
   * @return a predicate on label changes
   */
  static <T extends HasMetadata> EventPredicate<T> labelsChanged() {
    return onUpdateOnly((oldObj, newObj) -> !sameMap(oldObj, newObj, ObjectMeta::getLabels));
  }

  /**
   * Updates pass only when the annotations changed (absent and empty are the same); other event
   * types pass.
   *
   * @param <T> the kind
   * @return a predicate on annotation changes
   */
  static <T extends HasMetadata> EventPredicate<T> annotationsChanged() {
    return onUpdateOnly((oldObj, newObj) -> !sameMap(oldObj, newObj, ObjectMeta::getAnnotations));
  }

  /**
   * Events pass when the object's (new) labels match {@code selector}, with the Kubernetes
   * semantics of matchLabels and matchExpressions (In, NotIn, Exists, DoesNotExist). An empty
   * selector matches everything. The selector is checked once, here, not at each event.
   *
   * @param <T> the kind
   * @param selector the label selector
   * @return a predicate on the object's labels
   * @throws IllegalArgumentException for an unknown operator or a malformed expression
   */
  static <T extends HasMetadata> EventPredicate<T> labelSelector(LabelSelector selector) {
    LabelSelectorMatcher matcher = LabelSelectorMatcher.of(selector);
    return event -> matcher.matches(event.object().getMetadata().getLabels());
  }

  /**
   * Events pass when the object carries every one of {@code labels} with the same value: a selector
   * of matchLabels only.
   *
   * @param <T> the kind
   * @param labels the labels and values the object must carry
   * @return a predicate on the object's labels
   */
  static <T extends HasMetadata> EventPredicate<T> hasLabels(Map<String, String> labels) {
    return labelSelector(new LabelSelector(List.of(), Map.copyOf(labels)));
  }

  /**
   * Updates of a ConfigMap or Secret pass only when its content changed: a ConfigMap's {@code data}
   * or {@code binaryData}, a Secret's {@code data}, {@code stringData} or {@code type}. A change of
   * labels, annotations or managedFields alone does not reconcile what references it, so an
   * operator that hashes a referenced ConfigMap into a pod template (see {@code ConfigHash}) is not
   * woken for nothing. Updates of other kinds pass when their resourceVersion changed; creates and
   * deletes always pass.
   *
   * <pre>{@code
   * builder.watchesReferenced(ConfigMap.class, app -> names(app), EventPredicate.contentChanged());
   * }</pre>
   *
   * @param <T> the kind
   * @return a predicate on content changes
   */
  static <T extends HasMetadata> EventPredicate<T> contentChanged() {
    return onUpdateOnly(EventPredicate::contentDiffers);
  }

  /**
   * Starts a predicate with its own rule per event type; unset types pass.
   *
   * @param <T> the kind
   * @return a builder with every rule letting events through
   */
  static <T extends HasMetadata> CustomPredicate.Builder<T> custom() {
    return new CustomPredicate.Builder<>();
  }

  private static <T extends HasMetadata> EventPredicate<T> onUpdateOnly(
      java.util.function.BiPredicate<HasMetadata, HasMetadata> rule) {
    return event -> {
      if (event instanceof ResourceEvent.Updated<? extends T> update) {
        return rule.test(update.oldObject(), update.object());
      }
      return true;
    };
  }

  private static boolean contentDiffers(HasMetadata before, HasMetadata after) {
    if (before instanceof ConfigMap a && after instanceof ConfigMap b) {
      return !Objects.equals(a.getData(), b.getData())
          || !Objects.equals(a.getBinaryData(), b.getBinaryData());
    }
    if (before instanceof Secret a && after instanceof Secret b) {
      return !Objects.equals(a.getData(), b.getData())
          || !Objects.equals(a.getStringData(), b.getStringData())
          || !Objects.equals(a.getType(), b.getType());
    }
    return !Objects.equals(
        before.getMetadata().getResourceVersion(), after.getMetadata().getResourceVersion());
  }

  private static boolean sameMap(
      HasMetadata a, HasMetadata b, Function<ObjectMeta, Map<String, String>> field) {
    Map<String, String> left = field.apply(a.getMetadata());
    Map<String, String> right = field.apply(b.getMetadata());
    return Objects.equals(left == null ? Map.of() : left, right == null ? Map.of() : right);
  }
}
