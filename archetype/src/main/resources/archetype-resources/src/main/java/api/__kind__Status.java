package ${package}.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.converge.crd.annotation.Description;
import dev.converge.status.HasConditions;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** What the operator observed, written through the status subresource. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ${kind}Status(
    @Description("Ready, with its reason and message.") List<Condition> conditions,
    @Description("The metadata.generation this status describes.") Long observedGeneration)
    implements HasConditions {

  public static final String READY = "Ready";
}
