/**
 * Filters that decide which events reach the work queue: generation, resourceVersion, labels,
 * annotations, label selectors, their combinations, and per-event-type rules.
 */
package dev.converge.predicate;
