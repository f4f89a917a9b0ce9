package dev.converge.docscheck.given;

import dev.converge.status.HasConditions;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * What the operator reports about a {@link Widget}: its conditions and the generation they
 * describe.
 */
public record WidgetStatus(List<Condition> conditions, Long observedGeneration)
    implements HasConditions {}
