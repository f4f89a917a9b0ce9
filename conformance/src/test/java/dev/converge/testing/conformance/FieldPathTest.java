package dev.converge.testing.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.testing.conformance.internal.JsonValue;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FieldPathTest {

  private final Map<String, Object> deployment =
      JsonValue.copy(
          Map.of(
              "metadata", Map.of("labels", Map.of("app.kubernetes.io/name", "web")),
              "spec",
                  Map.of(
                      "template",
                      Map.of(
                          "spec",
                          Map.of(
                              "containers",
                              List.of(
                                  Map.of("name", "sidecar", "image", "proxy"),
                                  Map.of(
                                      "name",
                                      "web",
                                      "image",
                                      "web:1",
                                      "livenessProbe",
                                      Map.of("tcpSocket", Map.of("port", 8080)))))))));

  @Test
  void readsKeysQuotedKeysElementsByFieldAndByIndex() {
    assertThat(
            FieldPath.of("spec.template.spec.containers[name=web].livenessProbe.tcpSocket.port")
                .get(deployment))
        .contains(8080);
    assertThat(FieldPath.of("metadata.labels[\"app.kubernetes.io/name\"]").get(deployment))
        .contains("web");
    assertThat(FieldPath.of("spec.template.spec.containers[0].image").get(deployment))
        .contains("proxy");
    assertThat(FieldPath.of("spec.template.spec.containers[name=\"web\"].image").get(deployment))
        .contains("web:1");
    assertThat(
            FieldPath.of("spec.template.spec.containers[name=sidecar].livenessProbe")
                .get(deployment))
        .isEmpty();
    assertThat(FieldPath.of("spec.template.spec.containers[name=db]").get(deployment)).isEmpty();
  }

  @Test
  void printsWhatItParses() {
    for (String text :
        List.of(
            "spec.template.spec.containers[name=web].livenessProbe",
            "data[\"app.properties\"]",
            "metadata.finalizers[0]",
            "spec.ports[name=\"a b\"].port")) {
      assertThat(FieldPath.of(text)).hasToString(text);
      assertThat(FieldPath.of(FieldPath.of(text).toString())).isEqualTo(FieldPath.of(text));
    }
  }

  @Test
  void setsCreatingMapsAndElementsAndRemoves() {
    Map<String, Object> tree = JsonValue.copy(deployment);
    FieldPath.of("spec.template.spec.containers[name=web].resources.limits.cpu").set(tree, "500m");
    FieldPath.of("spec.template.spec.containers[name=db].image").set(tree, "db:2");
    assertThat(FieldPath.of("spec.template.spec.containers[name=web].resources.limits").get(tree))
        .contains(Map.of("cpu", "500m"));
    assertThat(FieldPath.of("spec.template.spec.containers[2]").get(tree))
        .contains(Map.of("name", "db", "image", "db:2"));

    assertThat(FieldPath.of("spec.template.spec.containers[name=web].livenessProbe").remove(tree))
        .isTrue();
    assertThat(FieldPath.of("spec.template.spec.containers[name=sidecar]").remove(tree)).isTrue();
    assertThat(FieldPath.of("spec.nothing.here").remove(tree)).isFalse();
    assertThat(FieldPath.of("spec.template.spec.containers[name=web].livenessProbe").get(tree))
        .isEmpty();
    assertThat(FieldPath.of("spec.template.spec.containers[0].name").get(tree)).contains("web");
  }

  @Test
  void coversPathsBelowIt() {
    assertThat(FieldPath.of("spec.selector").covers(FieldPath.of("spec.selector.matchLabels.app")))
        .isTrue();
    assertThat(FieldPath.of("spec.selector").covers(FieldPath.of("spec.selectorX"))).isFalse();
    assertThat(FieldPath.of("spec.selector.app").parent())
        .isEqualTo(Optional.of(FieldPath.of("spec.selector")));
  }

  @Test
  void syntaxErrorsSayWhere() {
    assertThatThrownBy(() -> FieldPath.of("data[\"k\"")).hasMessageContaining("never closed");
    assertThatThrownBy(() -> FieldPath.of("spec.ports[oops]")).hasMessageContaining("[oops]");
  }
}
