package dev.converge.status.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class JsonMergePatchTest {

  private final KubernetesSerialization json = new KubernetesSerialization();

  private JsonNode node(String text) {
    return json.unmarshal(text.replace('\'', '"'), JsonNode.class);
  }

  private String diff(String from, String to) {
    return json.asJson(JsonMergePatch.diff(node(from), node(to))).replace('"', '\'');
  }

  @Test
  void equalDocumentsGiveAnEmptyPatch() {
    assertThat(diff("{'a':1,'b':{'c':[1,2]}}", "{'b':{'c':[1,2]},'a':1}")).isEqualTo("{}");
  }

  @Test
  void changedAndAddedMembersAreSentNestedUnchangedOnesAreNot() {
    assertThat(
            diff(
                "{'phase':'Pending','replicas':{'ready':0,'wanted':3},'x':1}",
                "{'phase':'Running','replicas':{'ready':3,'wanted':3},'x':1,'since':'now'}"))
        .isEqualTo("{'phase':'Running','replicas':{'ready':3},'since':'now'}");
  }

  @Test
  void removedMembersBecomeNull() {
    assertThat(diff("{'a':1,'b':{'c':2,'d':3}}", "{'b':{'c':2}}"))
        .isEqualTo("{'a':null,'b':{'d':null}}");
  }

  @Test
  void arraysAreReplacedWhole() {
    assertThat(
            diff(
                "{'conditions':[{'type':'A'},{'type':'B'}]}",
                "{'conditions':[{'type':'A'},{'type':'C'}]}"))
        .isEqualTo("{'conditions':[{'type':'A'},{'type':'C'}]}");
  }

  @Test
  void nullMembersCountAsAbsentOnBothSides() {
    assertThat(diff("{'a':1}", "{'a':1,'b':null}")).isEqualTo("{}");
    assertThat(diff("{'a':1,'b':null}", "{'a':1}")).isEqualTo("{}");
    assertThat(diff("{'a':{'b':null}}", "{'a':{}}")).isEqualTo("{}");
  }

  @Test
  void absentSidesAreHandled() {
    assertThat(JsonMergePatch.isEmpty(JsonMergePatch.diff(null, null))).isTrue();
    assertThat(json.asJson(JsonMergePatch.diff(null, node("{\"a\":1}")))).isEqualTo("{\"a\":1}");
    assertThat(JsonMergePatch.diff(node("{\"a\":1}"), null).isNull()).isTrue();
  }

  @Test
  void scalarTypeChangeIsAReplacement() {
    assertThat(diff("{'a':{'b':1}}", "{'a':'flat'}")).isEqualTo("{'a':'flat'}");
  }
}
