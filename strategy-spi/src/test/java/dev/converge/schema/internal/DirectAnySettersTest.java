package dev.converge.schema.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import dev.converge.schema.Json;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Properties a model class does not declare reach its any-setter through {@link
 * Json#serialization()} as they do through fabric8's own serialization.
 */
class DirectAnySettersTest {

  private final KubernetesSerialization ours = Json.serialization();
  private final KubernetesSerialization fabric8 = new KubernetesSerialization();

  @Test
  void fieldsV1KeepsEveryPathItHolds() {
    String json =
        "{\"manager\":\"app-operator\",\"operation\":\"Apply\",\"fieldsType\":\"FieldsV1\","
            + "\"fieldsV1\":{\"f:metadata\":{\"f:labels\":{\"f:app\":{}}},"
            + "\"f:spec\":{\"f:replicas\":{},\"f:ports\":{\"k:{\\\"port\\\":80}\":{\".\":{}}}}}}";

    ManagedFieldsEntry entry = ours.unmarshal(json, ManagedFieldsEntry.class);

    FieldsV1 fields = entry.getFieldsV1();
    assertThat(fields.getAdditionalProperties().keySet()).containsExactly("f:metadata", "f:spec");
    assertThat(fields.getAdditionalProperties().get("f:metadata"))
        .isEqualTo(Map.of("f:labels", Map.of("f:app", Map.of())));
    assertThat(fields.getAdditionalProperties().get("f:spec"))
        .isEqualTo(
            Map.of(
                "f:replicas",
                Map.of(),
                "f:ports",
                Map.of("k:{\"port\":80}", Map.of(".", Map.of()))));
    assertThat(entry).isEqualTo(fabric8.unmarshal(json, ManagedFieldsEntry.class));
  }

  @Test
  void aGenericResourceKeepsItsUndeclaredProperties() {
    String json =
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Gadget\",\"metadata\":{\"name\":\"g\"},"
            + "\"spec\":{\"size\":3,\"tags\":[\"a\",\"b\"]},\"status\":{\"ready\":true}}";

    GenericKubernetesResource gadget = ours.unmarshal(json, GenericKubernetesResource.class);

    assertThat(gadget.getAdditionalProperties())
        .containsExactly(
            Map.entry("spec", Map.of("size", 3, "tags", List.of("a", "b"))),
            Map.entry("status", Map.of("ready", true)));
    assertThat(gadget).isEqualTo(fabric8.unmarshal(json, GenericKubernetesResource.class));
  }

  @Test
  void anAnySetterOfYourOwnIsCalledWithEachNameAndValue() {
    Recording recording =
        ours.unmarshal("{\"known\":\"k\",\"one\":1,\"two\":{\"x\":[true]}}", Recording.class);

    assertThat(recording.known).isEqualTo("k");
    assertThat(recording.seen)
        .containsExactly(Map.entry("one", 1), Map.entry("two", Map.of("x", List.of(true))));
    // called from the generated class, not through method handles Jackson makes for each call
    assertThat(recording.callers)
        .doesNotContain("tools.jackson.databind.introspect.AnnotatedMethod");
    assertThat(fabric8.unmarshal("{\"one\":1}", Recording.class).callers)
        .contains("tools.jackson.databind.introspect.AnnotatedMethod");
  }

  @Test
  void anAnySetterThatThrowsFailsTheReadNamingTheProperty() {
    assertThatThrownBy(() -> ours.unmarshal("{\"refused\":1}", Refusing.class))
        .isInstanceOf(KubernetesClientException.class)
        .rootCause()
        .hasMessage("no refused here");
  }

  @Test
  void aGeneratedSetterIsMadeForPublicMethodsOnly() throws Exception {
    assertThat(
            DirectAnySetters.setterFor(
                Recording.class.getMethod("put", String.class, Object.class)))
        .isNotNull();
    assertThat(
            DirectAnySetters.setterFor(
                Hidden.class.getDeclaredMethod("put", String.class, Object.class)))
        .isNull();
  }

  /** A class of a user's with an any-setter of its own. */
  public static class Recording {
    public String known;
    final Map<String, Object> seen = new LinkedHashMap<>();
    final List<String> callers = new java.util.ArrayList<>();

    @JsonAnySetter
    public void put(String name, Object value) {
      seen.put(name, value);
      for (StackTraceElement frame : new Throwable().getStackTrace()) {
        callers.add(frame.getClassName());
      }
    }
  }

  /** An any-setter that rejects what it is given. */
  public static class Refusing {
    @JsonAnySetter
    public void put(String name, Object value) {
      throw new IllegalArgumentException("no " + name + " here");
    }
  }

  /** A class the generated setters cannot reach. */
  static class Hidden {
    void put(String name, Object value) {}
  }
}
