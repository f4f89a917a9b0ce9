package dev.converge.crd.compare;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.converge.crd.sample.Mode;
import dev.converge.crd.sample.Protocol;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/** Spec of {@link Gizmo}: the features both generators support, each annotated for both. */
public class GizmoSpec {
  @io.fabric8.generator.annotation.Required
  @dev.converge.crd.annotation.Required
  @io.fabric8.generator.annotation.Pattern("^[a-z]+$")
  @dev.converge.crd.annotation.Matches("^[a-z]+$")
  @io.fabric8.generator.annotation.Size(min = 2, max = 30)
  @dev.converge.crd.annotation.Length(min = 2, max = 30)
  @JsonPropertyDescription("Name of the gizmo.")
  @io.fabric8.crd.generator.annotation.SelectableField
  @dev.converge.crd.annotation.SelectableField
  public String name;

  @io.fabric8.generator.annotation.Min(1)
  @dev.converge.crd.annotation.Minimum(1)
  @io.fabric8.generator.annotation.Max(value = 50, inclusive = false)
  @dev.converge.crd.annotation.Maximum(value = 50, exclusive = true)
  @io.fabric8.generator.annotation.Default("3")
  @dev.converge.crd.annotation.Default("3")
  public Integer size;

  @io.fabric8.generator.annotation.Min(value = 0, inclusive = false)
  @dev.converge.crd.annotation.Minimum(value = 0, exclusive = true)
  public BigDecimal ratio;

  @io.fabric8.generator.annotation.Size(min = 1, max = 5)
  @dev.converge.crd.annotation.Items(min = 1, max = 5)
  public List<String> tags;

  @io.fabric8.generator.annotation.Nullable @dev.converge.crd.annotation.Nullable
  public String comment;

  @io.fabric8.generator.annotation.ValidationRule(
      value = "self.startsWith('img-')",
      message = "image must start with img-")
  @dev.converge.crd.annotation.Rule(
      value = "self.startsWith('img-')",
      message = "image must start with img-")
  public String image;

  @io.fabric8.generator.annotation.ValidationRule(
      value = "!oldSelf.hasValue() || self == oldSelf.value()",
      message = "owner is set once",
      optionalOldSelf = true)
  @dev.converge.crd.annotation.Rule(
      value = "!oldSelf.hasValue() || self == oldSelf.value()",
      message = "owner is set once",
      optionalOldSelf = true)
  public String owner;

  @io.fabric8.generator.annotation.Default("fast")
  @dev.converge.crd.annotation.Default("fast")
  public Mode mode;

  public Protocol protocol;
  public long big;
  public int small;
  public boolean enabled;
  public Set<String> uniqueNames;
  public Map<String, String> labels;
  public Map<String, List<Integer>> groups;
  public GizmoPart part;
  public List<GizmoPart> parts;
  public IntOrString maxUnavailable;
  public Quantity memory;
  public JsonNode raw;
  public Object anything;

  @io.fabric8.crd.generator.annotation.PreserveUnknownFields
  @dev.converge.crd.annotation.PreserveUnknownFields
  public GizmoPart open;

  @JsonProperty("renamed-field")
  public String renamedField;
}
