package dev.converge.crd;

import static dev.converge.crd.SchemaTrees.texts;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The Jakarta Validation and Jackson annotations the README lists as read. */
class JakartaAndJacksonTest {

  public static class Spec {
    @JsonProperty(required = true)
    public String byJackson;

    @NotBlank public String notBlank;
    @NotEmpty public List<String> notEmpty;
    @Email public String email;

    @Max(5)
    public int atMostFive;

    @DecimalMin("0.5")
    public double atLeastHalf;

    @Size(min = 1, max = 3)
    public Map<String, String> someEntries;

    @JsonIgnore public String ignored;
    public transient String notSerialised;

    @SuppressWarnings("unused")
    private String privateWithoutAccessor;

    private String privateWithGetter;

    public String getPrivateWithGetter() {
      return privateWithGetter;
    }
  }

  @Group("jakarta.crd.converge.dev")
  @Version("v1")
  public static class Annotated extends CustomResource<Spec, Void> {
    private static final long serialVersionUID = 1L;
  }

  private final JsonNode spec = SchemaTrees.schema(Annotated.class).at("/properties/spec");

  @Test
  void requiredFromJacksonAndJakarta() {
    assertThat(texts(spec.get("required")))
        .containsExactlyInAnyOrder("byJackson", "notBlank", "notEmpty");
    assertThat(spec.at("/properties/notBlank/minLength").asInt()).isEqualTo(1);
    assertThat(spec.at("/properties/notEmpty/minItems").asInt()).isEqualTo(1);
  }

  @Test
  void boundsFormatsAndMapSizes() {
    assertThat(spec.at("/properties/email/format").asString()).isEqualTo("email");
    assertThat(spec.at("/properties/atMostFive/maximum").asInt()).isEqualTo(5);
    assertThat(spec.at("/properties/atLeastHalf/minimum").asDouble()).isEqualTo(0.5);
    assertThat(spec.at("/properties/someEntries/minProperties").asInt()).isEqualTo(1);
    assertThat(spec.at("/properties/someEntries/maxProperties").asInt()).isEqualTo(3);
  }

  @Test
  void propertiesJacksonDoesNotWriteAreLeftOut() {
    assertThat(spec.get("properties").propertyNames())
        .doesNotContain("ignored", "notSerialised", "privateWithoutAccessor")
        .contains("privateWithGetter");
  }
}
