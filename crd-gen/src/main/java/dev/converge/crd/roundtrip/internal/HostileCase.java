package dev.converge.crd.roundtrip.internal;

import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;

/**
 * One value a schema must refuse: at {@code path} (as the API server names fields, {@code
 * spec.ports[0].port}), breaking {@code constraint}. {@code bad} turns the current value there
 * (absent for a missing required property) into the offending one; it returns {@code null} to
 * remove the property.
 */
public record HostileCase(String path, String constraint, UnaryOperator<JsonNode> bad) {}
