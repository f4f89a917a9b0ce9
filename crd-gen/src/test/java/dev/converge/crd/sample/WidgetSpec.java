package dev.converge.crd.sample;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.converge.crd.annotation.AllowedValues;
import dev.converge.crd.annotation.Default;
import dev.converge.crd.annotation.Description;
import dev.converge.crd.annotation.Format;
import dev.converge.crd.annotation.IntegerOrString;
import dev.converge.crd.annotation.Items;
import dev.converge.crd.annotation.Length;
import dev.converge.crd.annotation.ListType;
import dev.converge.crd.annotation.MapType;
import dev.converge.crd.annotation.Matches;
import dev.converge.crd.annotation.Maximum;
import dev.converge.crd.annotation.Minimum;
import dev.converge.crd.annotation.Nullable;
import dev.converge.crd.annotation.PreserveUnknownFields;
import dev.converge.crd.annotation.Required;
import dev.converge.crd.annotation.Rule;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/** Spec of {@link Widget}: one field per feature. */
public class WidgetSpec {
  // ---- scalar types and formats
  @Required
  @Length(min = 3, max = 20)
  @Matches("^[a-z][a-z0-9-]*$")
  @Description("Name of the widget.")
  public String name;

  @Minimum(1)
  @Maximum(value = 100, exclusive = true)
  @Default("10")
  public Integer size;

  @Minimum(value = 0, exclusive = true)
  public Double ratio;

  public long big;
  public float small;
  public boolean enabled;
  public BigDecimal amount;
  public Integer maxSize;

  // ---- enums and restrictions
  @Default("fast")
  public Mode mode;

  @AllowedValues({"red", "green", "blue"})
  public String color;

  // ---- Jakarta Validation
  @NotNull
  @Size(min = 1, max = 5)
  @Pattern(regexp = "^v[0-9]+$")
  public String revision;

  @Positive public Integer weight;

  @Size(max = 3)
  public List<String> aliases;

  // ---- collections
  @Items(min = 1, max = 4)
  @ListType(ListType.Kind.SET)
  public Set<String> tags;

  public List<@Matches("^[a-z]+$") String> labelsInOrder;

  @ListType(value = ListType.Kind.MAP, keys = "name")
  public List<Port> ports;

  @ListType(ListType.Kind.ATOMIC)
  public List<Integer> numbers;

  @MapType(MapType.Kind.ATOMIC)
  public Map<String, Integer> limits;

  // ---- nested objects
  public Endpoint endpoint;
  public Optional<String> note;

  // ---- Kubernetes special types
  public IntOrString maxUnavailable;
  public Quantity memory;

  @IntegerOrString public String threshold;

  public Object anything;
  public JsonNode raw;
  public Map<String, Object> extra;

  @PreserveUnknownFields public Endpoint openEndpoint;

  public ConfigMap template;

  public byte[] payload;
  public Instant notAfter;

  @Format("hostname")
  public String host;

  // ---- nullability, descriptions, rules
  @Nullable public String optionalValue;

  @JsonPropertyDescription("Described by Jackson.")
  public String documented;

  @JsonProperty("renamed-field")
  public String renamedField;

  @Rule(value = "self.startsWith('img-')", message = "image must start with img-")
  public String image;

  @Rule(value = "self == oldSelf", message = "storageClass is immutable")
  public String storageClass;

  @Default("[\"a\", \"b\"]")
  public List<String> defaultedList;

  @Default("true")
  public Boolean defaultedFlag;
}
