package dev.converge.example.api.v2;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.converge.crd.annotation.Default;
import dev.converge.crd.annotation.ListType;
import dev.converge.crd.annotation.Matches;
import dev.converge.crd.annotation.Maximum;
import dev.converge.crd.annotation.Minimum;
import dev.converge.crd.annotation.Required;
import java.util.List;

/**
 * v2's spec: as v1's, with {@code ports} (the first is the container's and the Service's main port)
 * instead of v1's single port.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AppDeploymentV2Spec(
    @Required String image,
    @Minimum(0) @Default("1") Integer replicas,
    @Matches("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$") String configMapName,
    @ListType(value = ListType.Kind.MAP, keys = "name") List<NamedPort> ports) {

  /** A port with a name, unique in the list. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record NamedPort(
      @Required @Matches("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$") String name,
      @Required @Minimum(1) @Maximum(65535) Integer port) {}
}
