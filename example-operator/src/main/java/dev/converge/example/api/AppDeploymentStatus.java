package dev.converge.example.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.converge.crd.annotation.Description;
import dev.converge.status.HasConditions;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * What the operator observed. Written only through the status subresource.
 *
 * @param phase the one-word summary
 * @param readyReplicas ready pods of the managed Deployment
 * @param conditions Ready and ConfigResolved
 * @param observedGeneration the generation this status was computed from
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AppDeploymentStatus(
    @Description("Pending, Running or Failed.") Phase phase,
    @Description("Ready pods of the managed Deployment.") Integer readyReplicas,
    @Description("Ready and ConfigResolved, with reasons.") List<Condition> conditions,
    @Description("The metadata.generation this status was computed from.") Long observedGeneration)
    implements HasConditions {

  /** Condition type: all pods of the current template are ready. */
  public static final String READY = "Ready";

  /** Condition type: the referenced ConfigMap exists (True also when none is referenced). */
  public static final String CONFIG_RESOLVED = "ConfigResolved";
}
