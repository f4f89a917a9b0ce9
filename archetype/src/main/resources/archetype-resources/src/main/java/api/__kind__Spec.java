package ${package}.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.converge.crd.annotation.Default;
import dev.converge.crd.annotation.Description;
import dev.converge.crd.annotation.Minimum;
import dev.converge.crd.annotation.Required;

/** What the user asks for; the API server applies the defaults from the generated schema. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ${kind}Spec(
    @Required @Description("Container image of the ${kindLower}'s pods.") String image,
    @Minimum(0) @Default("1") @Description("Number of pods.") Integer replicas) {

  /** {@code replicas}, or 1 where the server has not defaulted it (unit tests). */
  public int replicasOrDefault() {
    return replicas == null ? 1 : replicas;
  }
}
