package dev.converge.builder;

import dev.converge.handler.EventHandler;
import dev.converge.predicate.EventPredicate;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * One event source of a controller: a kind, the filter its events pass, and how they map to primary
 * keys.
 *
 * @param <T> the watched kind
 * @param type the watched kind's class
 * @param predicate which of its events pass
 * @param handler the primary keys an event that passed maps to
 */
public record WatchDefinition<T extends HasMetadata>(
    Class<T> type, EventPredicate<T> predicate, EventHandler<T> handler) {

  /**
   * Checks the definition, so that a missing part fails while the controller is built.
   *
   * @param type the watched kind's class
   * @param predicate which of its events pass
   * @param handler the primary keys an event that passed maps to
   * @throws NullPointerException when a component is null
   */
  public WatchDefinition {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(predicate, "predicate");
    Objects.requireNonNull(handler, "handler");
  }
}
