package dev.converge.operator.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.operator.DryRunReport.Change;
import dev.converge.operator.DryRunReport.FieldChange;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class FieldDiffTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static JsonNode json(String text) {
    return JSON.readTree(text.replace('\'', '"'));
  }

  @Test
  void aChangedScalarAnAddedLabelAndARemovedAnnotationAreThreeChanges() {
    JsonNode live =
        json(
            "{'metadata':{'name':'web','labels':{'app':'web'},'annotations':{'note':'old'}},"
                + "'spec':{'replicas':1}}");
    JsonNode answer =
        json(
            "{'metadata':{'name':'web','labels':{'app':'web','team':'x'}},"
                + "'spec':{'replicas':2}}");

    assertThat(FieldDiff.between(live, answer))
        .containsExactly(
            new FieldChange(Change.REMOVED, "metadata.annotations.note", "\"old\"", null),
            new FieldChange(Change.ADDED, "metadata.labels.team", null, "\"x\""),
            new FieldChange(Change.CHANGED, "spec.replicas", "1", "2"));
  }

  @Test
  void fieldsTheServerSetsOnEveryWriteAreNotChanges() {
    JsonNode live =
        json(
            "{'metadata':{'name':'web','resourceVersion':'1','generation':1,'uid':'a',"
                + "'creationTimestamp':'2026-01-01T00:00:00Z','managedFields':[{'manager':'a'}]},"
                + "'data':{'k':'v'}}");
    JsonNode answer =
        json(
            "{'metadata':{'name':'web','resourceVersion':'2','generation':2,'uid':'a',"
                + "'creationTimestamp':'2026-01-01T00:00:00Z','managedFields':[{'manager':'b'}]},"
                + "'data':{'k':'v'}}");

    assertThat(FieldDiff.between(live, answer)).isEmpty();
  }

  @Test
  void aCreateAddsEveryFieldAndADeleteRemovesEveryField() {
    JsonNode object =
        json("{'kind':'ConfigMap','metadata':{'name':'c','resourceVersion':'9'},'data':{}}");

    assertThat(FieldDiff.between(null, object))
        .containsExactly(
            new FieldChange(Change.ADDED, "data", null, "{}"),
            new FieldChange(Change.ADDED, "kind", null, "\"ConfigMap\""),
            new FieldChange(Change.ADDED, "metadata.name", null, "\"c\""));
    assertThat(FieldDiff.between(object, null))
        .containsExactly(
            new FieldChange(Change.REMOVED, "data", "{}", null),
            new FieldChange(Change.REMOVED, "kind", "\"ConfigMap\"", null),
            new FieldChange(Change.REMOVED, "metadata.name", "\"c\"", null));
  }

  @Test
  void namedListElementsAreComparedByNameAndOthersByPosition() {
    JsonNode live =
        json(
            "{'spec':{'containers':[{'name':'app','image':'a:1'},{'name':'side','image':'s:1'}],"
                + "'args':['x','y']}}");
    JsonNode answer =
        json(
            "{'spec':{'containers':[{'name':'side','image':'s:1'},{'name':'app','image':'a:2'}],"
                + "'args':['y']}}");

    assertThat(FieldDiff.between(live, answer))
        .containsExactly(
            new FieldChange(Change.CHANGED, "spec.args[0]", "\"x\"", "\"y\""),
            new FieldChange(Change.REMOVED, "spec.args[1]", "\"y\"", null),
            new FieldChange(Change.CHANGED, "spec.containers[app].image", "\"a:1\"", "\"a:2\""));
  }

  @Test
  void keysWithDotsOrSlashesAreQuotedInBrackets() {
    JsonNode live = json("{'metadata':{'labels':{}}}");
    JsonNode answer = json("{'metadata':{'labels':{'app.kubernetes.io/name':'web'}}}");

    assertThat(FieldDiff.between(live, answer))
        .containsExactly(
            new FieldChange(Change.REMOVED, "metadata.labels", "{}", null),
            new FieldChange(
                Change.ADDED, "metadata.labels[\"app.kubernetes.io/name\"]", null, "\"web\""));
  }

  @Test
  void aValueThatChangesTypeIsRemovedAndAdded() {
    assertThat(FieldDiff.between(json("{'spec':{'port':8080}}"), json("{'spec':{'port':'http'}}")))
        .containsExactly(new FieldChange(Change.CHANGED, "spec.port", "8080", "\"http\""));
    assertThat(FieldDiff.between(json("{'spec':{'x':{'a':1}}}"), json("{'spec':{'x':'flat'}}")))
        .containsExactly(
            new FieldChange(Change.ADDED, "spec.x", null, "\"flat\""),
            new FieldChange(Change.REMOVED, "spec.x.a", "1", null));
  }

  @Test
  void identicalObjectsHaveNoChange() {
    JsonNode object = json("{'metadata':{'name':'web'},'spec':{'replicas':3,'paused':false}}");
    assertThat(FieldDiff.between(object, object.deepCopy())).isEmpty();
  }
}
