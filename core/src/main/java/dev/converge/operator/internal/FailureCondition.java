package dev.converge.operator.internal;

import dev.converge.reconcile.Refusal;
import dev.converge.retry.internal.ResourceText;
import dev.converge.status.ConditionStatus;
import dev.converge.status.Conditions;
import dev.converge.status.HasConditions;
import dev.converge.status.StatusOutcome;
import dev.converge.status.internal.RecomputingStatusUpdate;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The runtime's {@value Refusal#CONDITION_TYPE} condition on a primary: set to False when a
 * reconcile ends in a refusal or a permanent failure, removed by the next reconcile that ends
 * without one. Works for any custom resource (typed or generic) whose status can hold {@code
 * conditions} and that has a status subresource; for any other primary it does nothing, says so
 * once per controller, and the Warning Event stays the only report. It never fails the reconcile.
 */
final class FailureCondition {

  private static final Logger log = LoggerFactory.getLogger(FailureCondition.class);

  private final RuntimeServices services;
  private final String controller;
  private final Conditions conditions = Conditions.systemClock();
  private final AtomicBoolean degradedSaid = new AtomicBoolean();

  FailureCondition(RuntimeServices services, String controller) {
    this.services = services;
    this.controller = controller;
  }

  /** A status that cannot hold the condition, found before anything was sent. */
  private static final class CannotCarry extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CannotCarry(String message) {
      super(message);
    }
  }

  /**
   * Sets {@value Refusal#CONDITION_TYPE}=False with {@code reason} and {@code message} and the
   * primary's generation.
   *
   * @return the primary's resourceVersion after the write; empty when nothing was written
   */
  <P extends HasMetadata> Optional<String> fail(P primary, String reason, String message) {
    return write(
        primary,
        (list, target) ->
            conditions.set(
                list, target, Refusal.CONDITION_TYPE, ConditionStatus.FALSE, reason, message),
        true);
  }

  /**
   * Removes a {@value Refusal#CONDITION_TYPE}=False condition, if the primary as cached carries
   * one; nothing is sent otherwise.
   *
   * @return the primary's resourceVersion after the write; empty when nothing was written
   */
  <P extends HasMetadata> Optional<String> clear(P primary) {
    if (services.client() == null
        || !(primary instanceof CustomResource<?, ?>
            || primary instanceof GenericKubernetesResource)
        || !isFalse(primary)) {
      return Optional.empty();
    }
    return write(primary, (list, target) -> Conditions.remove(list, Refusal.CONDITION_TYPE), false);
  }

  private boolean isFalse(HasMetadata primary) {
    try {
      return Conditions.isFalse(conditionsOf(primary), Refusal.CONDITION_TYPE);
    } catch (RuntimeException e) {
      return false; // a status that does not read as conditions carries none of ours
    }
  }

  private <P extends HasMetadata> Optional<String> write(
      P primary,
      BiFunction<List<Condition>, HasMetadata, List<Condition>> change,
      boolean setting) {
    String what = ResourceText.describe(primary);
    if (!(primary instanceof CustomResource<?, ?>
        || primary instanceof GenericKubernetesResource)) {
      degraded(what, "its status belongs to the controller of its kind");
      return Optional.empty();
    }
    if (services.client() == null) {
      return Optional.empty();
    }
    try {
      StatusOutcome<P> outcome =
          new RecomputingStatusUpdate(services.client(), services.status())
              .update(primary, target -> put(target, change.apply(conditionsOf(target), target)));
      if (!(outcome instanceof StatusOutcome.Written<P> written)) {
        return Optional.empty();
      }
      if (setting
          && Conditions.find(conditionsOf(written.object()), Refusal.CONDITION_TYPE).isEmpty()) {
        degraded(
            what, "the API server dropped status.conditions (the CRD's status schema has none)");
        return Optional.empty();
      }
      return Optional.ofNullable(written.object().getMetadata().getResourceVersion());
    } catch (CannotCarry e) {
      degraded(what, e.getMessage());
    } catch (IllegalStateException e) {
      // RecomputingStatusUpdate's answer to a 404 on /status of an object that exists
      degraded(what, e.getMessage());
    } catch (RuntimeException e) {
      log.warn(
          "controller {}: could not {} condition {} of {}: {}",
          controller,
          setting ? "set" : "remove",
          Refusal.CONDITION_TYPE,
          what,
          e.toString());
    }
    return Optional.empty();
  }

  private void degraded(String what, String why) {
    if (degradedSaid.compareAndSet(false, true)) {
      log.info(
          "controller {}: failures of {} are reported by Warning Events only, not by a {}"
              + " condition: {} (said once per controller)",
          controller,
          what,
          Refusal.CONDITION_TYPE,
          why);
    }
  }

  /**
   * The conditions in {@code object}'s status; read on every reconcile that ends well, so the
   * status alone is looked at, and not even converted when it says what its conditions are.
   */
  private List<Condition> conditionsOf(HasMetadata object) {
    KubernetesSerialization json = services.client().getKubernetesSerialization();
    Object status;
    if (object instanceof CustomResource<?, ?> resource) {
      status = resource.getStatus();
      if (status instanceof HasConditions typed) {
        return typed.conditions() == null ? List.of() : typed.conditions();
      }
    } else if (object instanceof GenericKubernetesResource generic) {
      status = generic.getAdditionalProperties().get("status");
    } else {
      status = json.convertValue(object, JsonNode.class).get("status");
    }
    if (status == null) {
      return List.of();
    }
    JsonNode tree =
        status instanceof JsonNode node ? node : json.convertValue(status, JsonNode.class);
    JsonNode list = tree == null ? null : tree.get("conditions");
    List<Condition> result = new ArrayList<>();
    if (list != null && list.isArray()) {
      for (JsonNode element : list) {
        result.add(json.convertValue(element, Condition.class));
      }
    }
    return result;
  }

  /**
   * Stores {@code list} as {@code target}'s {@code status.conditions}, through the object's own
   * JSON form, so typed statuses (records, POJOs) and generic ones are handled alike.
   */
  private void put(HasMetadata target, List<Condition> list) {
    KubernetesSerialization json = services.client().getKubernetesSerialization();
    JsonNode tree = json.convertValue(target, JsonNode.class);
    if (!(tree instanceof ObjectNode object)) {
      throw new CannotCarry("it does not serialise as a JSON object");
    }
    JsonNode status = object.get("status");
    ObjectNode newStatus =
        status instanceof ObjectNode existing
            ? existing.deepCopy()
            : JsonNodeFactory.instance.objectNode();
    newStatus.set("conditions", json.convertValue(list, JsonNode.class));
    object.set("status", newStatus);
    HasMetadata converted;
    try {
      converted = json.convertValue(object, target.getClass());
    } catch (RuntimeException e) {
      throw new CannotCarry("its status type cannot hold conditions (" + e.getMessage() + ")");
    }
    if (target instanceof CustomResource<?, ?> resource) {
      copyStatus(resource, (CustomResource<?, ?>) converted);
    } else if (target instanceof GenericKubernetesResource generic) {
      generic.setAdditionalProperty(
          "status",
          ((GenericKubernetesResource) converted).getAdditionalProperties().get("status"));
    }
    List<Condition> stored = conditionsOf(target);
    if (!stored.equals(list)) {
      throw new CannotCarry(
          "its status type has no conditions list of metav1.Condition (it implements no"
              + " dev.converge.status.HasConditions)");
    }
  }

  /** Both objects are of the same class, so of the same status type. */
  @SuppressWarnings("unchecked")
  private static <S> void copyStatus(CustomResource<?, S> to, CustomResource<?, ?> from) {
    to.setStatus((S) from.getStatus());
  }
}
