package dev.converge.unittest;

import dev.converge.event.EventType;
import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * An Event a reconciler recorded through a {@link TestContext}.
 *
 * @param involved the object the Event is about
 * @param type Normal or Warning
 * @param reason the UpperCamelCase reason
 * @param message the message
 */
public record RecordedEvent(HasMetadata involved, EventType type, String reason, String message) {}
