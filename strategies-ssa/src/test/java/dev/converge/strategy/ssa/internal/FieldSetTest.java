package dev.converge.strategy.ssa.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.strategy.tree.ResourceTree;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FieldSetTest {

  // What the API server records for an apply of a Deployment with one container and one port.
  private static final Map<String, Object> OWNED = ResourceTree.parse("""
      {"f:metadata":{"f:labels":{"f:app":{},"f:removable":{}}},
       "f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:spec":{"f:containers":{
         "k:{\\"name\\":\\"app\\"}":{".":{},"f:image":{},"f:name":{},
           "f:ports":{"k:{\\"containerPort\\":8080,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}}}}}}}""");

  private static Map<String, Object> desired(String labels) {
    return ResourceTree.parse("""
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","namespace":"n","labels":%s},
         "spec":{"replicas":1,"selector":{"matchLabels":{"app":"d"}},"template":{"spec":{"containers":[
           {"name":"app","image":"a:1","ports":[{"containerPort":8080}]}]}}}}""".formatted(labels));
  }

  @Test
  void theManagerOwnsExactlyDesired() {
    FieldSet set = new FieldSet(OWNED);
    Map<String, Object> same = desired("{\"app\":\"d\",\"removable\":\"yes\"}");

    assertThat(set.coveredBy(same)).isTrue();
  }

  @Test
  void aFieldDroppedFromDesiredIsNotCoveredSoTheApplyMustBeSent() {
    assertThat(new FieldSet(OWNED).coveredBy(desired("{\"app\":\"d\"}"))).isFalse();
  }

  @Test
  void aNewDesiredFieldIsNotOwnedYet() {
    FieldSet set = new FieldSet(ResourceTree.parse("""
        {"f:metadata":{"f:labels":{"f:app":{}}},"f:data":{"f:a":{}}}"""));

    assertThat(set.owns(ResourceTree.parse("""
        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"app":"c"}},"data":{"a":"1"}}""")))
        .isTrue();
    assertThat(set.owns(ResourceTree.parse("""
        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"app":"c"}},"data":{"a":"1","b":"2"}}""")))
        .isFalse();
  }

  @Test
  void anElementAnotherManagerAddedToAKeyedListIsNotADifferenceButAChangedOwnedElementIs() {
    FieldSet set = new FieldSet(ResourceTree.parse("""
        {"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{"f:env":{"k:{\\"name\\":\\"MODE\\"}":{"f:value":{}}},
          "f:image":{}}},"f:args":{}}}"""));
    Map<String, Object> desired = ResourceTree.parse("""
        {"spec":{"containers":[{"name":"app","image":"a:1","env":[{"name":"MODE","value":"a"}]}],"args":["x"]}}""");

    assertThat(set.heldBy(ResourceTree.parse("""
        {"spec":{"containers":[{"name":"side","image":"s:1"},{"name":"app","image":"a:1","imagePullPolicy":"IfNotPresent",
          "env":[{"name":"OTHER","value":"o"},{"name":"MODE","value":"a"}]}],"args":["x"]}}"""), desired)).isTrue();
    assertThat(set.heldBy(ResourceTree.parse("""
        {"spec":{"containers":[{"name":"app","image":"a:1","env":[{"name":"MODE","value":"b"}]}],"args":["x"]}}"""),
        desired)).isFalse();
    // args is atomic (no keys in the field set): an extra element is a difference
    assertThat(set.heldBy(ResourceTree.parse("""
        {"spec":{"containers":[{"name":"app","image":"a:1","env":[{"name":"MODE","value":"a"}]}],"args":["x","y"]}}"""),
        desired)).isFalse();
  }

  @Test
  void unionMergesNestedFieldSets() {
    Map<String, Object> union = FieldSet.union(
        ResourceTree.parse("{\"f:data\":{\"f:a\":{}}}"),
        ResourceTree.parse("{\"f:data\":{\"f:b\":{}},\"f:metadata\":{\"f:labels\":{}}}"));

    assertThat(ResourceTree.canonicalJson(union))
        .isEqualTo("{\"f:data\":{\"f:a\":{},\"f:b\":{}},\"f:metadata\":{\"f:labels\":{}}}");
  }
}
