package dev.converge.status;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The conditions one reconcile wants on its primary, said fluently and folded into the stored ones
 * by {@link Conditions}' rules ({@code lastTransitionTime} moves only when a status flips, each
 * condition's {@code observedGeneration} is the primary's generation). Immutable: each {@link #and}
 * returns a new value, so a reconciler can keep a common part and add to it on each path.
 *
 * <pre>{@code
 * context.updateStatus(app, conditions
 *     .want("Ready", ConditionStatus.FALSE, "InvalidImage", message)
 *     .and("ConfigResolved", ConditionStatus.TRUE, "ConfigMapFound", "ConfigMap app-config")
 *     .status((list, generation) -> new AppStatus(Phase.Failed, list, generation)));
 * }</pre>
 *
 * Start one with {@link Conditions#want}. Conditions of other types already in the status are kept.
 */
public final class WantedConditions {

  /**
   * Builds a primary's new status from the folded conditions and its generation.
   *
   * @param <S> the status type
   */
  @FunctionalInterface
  public interface StatusFactory<S> {
    /**
     * The status to store.
     *
     * @param conditions the stored conditions with the wanted ones set
     * @param observedGeneration the primary's {@code metadata.generation}; null when it has none
     * @return the primary's new status
     */
    S create(List<Condition> conditions, Long observedGeneration);
  }

  private record Wanted(String type, ConditionStatus status, String reason, String message) {}

  private final Conditions conditions;
  private final List<Wanted> wanted;

  private WantedConditions(Conditions conditions, List<Wanted> wanted) {
    this.conditions = conditions;
    this.wanted = wanted;
  }

  static WantedConditions of(
      Conditions conditions, String type, ConditionStatus status, String reason, String message) {
    return new WantedConditions(Objects.requireNonNull(conditions, "conditions"), List.of())
        .and(type, status, reason, message);
  }

  /**
   * These conditions and the condition of {@code type}; a later one of the same type wins.
   *
   * @param type the condition's type, such as {@code "Ready"}
   * @param status the condition's status
   * @param reason a CamelCase word saying why
   * @param message a sentence for people; cut to the API server's limit when longer
   * @return a new value; this one is unchanged
   * @throws IllegalArgumentException when the type is blank or the reason is not a CamelCase word
   *     (the API server would reject the status write)
   */
  public WantedConditions and(String type, ConditionStatus status, String reason, String message) {
    Conditions.validate(type, status, reason);
    List<Wanted> more = new ArrayList<>(wanted);
    more.add(new Wanted(type, status, reason, message));
    return new WantedConditions(conditions, List.copyOf(more));
  }

  /**
   * These conditions and {@code others}, the latter winning for a type both name.
   *
   * @param others conditions wanted on another path of the reconcile
   * @return a new value; neither this one nor {@code others} is changed
   */
  public WantedConditions and(WantedConditions others) {
    List<Wanted> more = new ArrayList<>(wanted);
    more.addAll(others.wanted);
    return new WantedConditions(conditions, List.copyOf(more));
  }

  /**
   * {@code current} with every wanted condition set, in the order they were added, each with {@code
   * primary}'s generation as its observedGeneration. {@code current} is not modified.
   *
   * @param current the stored conditions; null counts as none
   * @param primary the object the conditions describe
   * @return a new list with the wanted conditions set and the others kept
   */
  public List<Condition> applyTo(List<Condition> current, HasMetadata primary) {
    List<Condition> list = current == null ? List.of() : current;
    for (Wanted w : wanted) {
      list = conditions.set(list, primary, w.type(), w.status(), w.reason(), w.message());
    }
    return list;
  }

  /**
   * The status computation for {@code Context.updateStatus}: reads the conditions of the primary it
   * is given (a fresh read after a conflict), sets the wanted ones, and stores the status {@code
   * factory} builds from them and the primary's generation.
   *
   * @param <S> the primary's status type
   * @param <P> the primary's type
   * @param factory builds the new status from the folded conditions and the generation
   * @return the change to pass to {@code Context.updateStatus}
   */
  public <S extends HasConditions, P extends CustomResource<?, S>> Consumer<P> status(
      StatusFactory<S> factory) {
    Objects.requireNonNull(factory, "factory");
    return primary -> {
      S stored = primary.getStatus();
      List<Condition> list = applyTo(stored == null ? null : stored.conditions(), primary);
      Long generation =
          primary.getMetadata() == null ? null : primary.getMetadata().getGeneration();
      primary.setStatus(factory.create(list, generation));
    };
  }

  @Override
  public String toString() {
    return "WantedConditions" + wanted;
  }
}
