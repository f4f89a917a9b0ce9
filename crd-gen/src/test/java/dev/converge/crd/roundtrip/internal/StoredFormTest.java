package dev.converge.crd.roundtrip.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The stored form follows the API server's pruning, null dropping and defaulting. */
class StoredFormTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static final JsonNode SCHEMA =
      JSON.readTree(
          """
      {"type": "object", "properties": {
        "size": {"type": "integer", "default": 10},
        "name": {"type": "string"},
        "note": {"type": "string", "nullable": true},
        "ports": {"type": "array", "items": {"type": "object", "properties": {
          "port": {"type": "integer"}, "protocol": {"type": "string", "default": "TCP"}}}},
        "open": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}}}}
      """);

  @Test
  void unknownFieldsArePrunedNullsDroppedAndDefaultsFilledIn() {
    JsonNode sent =
        JSON.readTree(
            """
        {"name": null, "note": null, "bogus": 1, "ports": [{"port": 80}],
         "open": {"anything": [1]}, "labels": {"a": "b"}}
        """);
    JsonNode stored = StoredForm.of(sent, SCHEMA);
    assertThat(stored)
        .isEqualTo(
            JSON.readTree(
                """
        {"note": null, "ports": [{"port": 80, "protocol": "TCP"}], "open": {"anything": [1]},
         "labels": {"a": "b"}, "size": 10}
        """));
  }

  @Test
  void numbersCompareByValueAndTheFirstDifferenceIsNamed() {
    assertThat(
            StoredForm.difference(
                JSON.readTree("{\"a\": 3.0}"), JSON.readTree("{\"a\": 3}"), "spec"))
        .isEmpty();
    assertThat(
            StoredForm.difference(
                JSON.readTree("{\"a\": [1, 2]}"), JSON.readTree("{\"a\": [1, 3]}"), "spec"))
        .hasValue("spec.a[1]: expected 2, was 3");
    assertThat(StoredForm.difference(JSON.readTree("{\"a\": 1}"), JSON.readTree("{}"), "spec"))
        .hasValue("spec.a: expected 1, was absent");
  }
}
