package dev.converge.webhooks.sample;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** v2's spec: a colour, named ports and the ConfigMap. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GadgetV2Spec(String color, List<NamedPort> ports, String configMapName) {

  /** One port with its name. */
  public record NamedPort(String name, Integer port) {}
}
