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
 */
public record WatchDefinition<T extends HasMetadata>(
    Class<T> type, EventPredicate<T> predicate, EventHandler<T> handler) {

  public WatchDefinition {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(predicate, "predicate");
    Objects.requireNonNull(handler, "handler");
  }
}
