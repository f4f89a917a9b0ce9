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
  void unionMergesNestedFieldSets() {
    Map<String, Object> union = FieldSet.union(
        ResourceTree.parse("{\"f:data\":{\"f:a\":{}}}"),
        ResourceTree.parse("{\"f:data\":{\"f:b\":{}},\"f:metadata\":{\"f:labels\":{}}}"));

    assertThat(ResourceTree.canonicalJson(union))
        .isEqualTo("{\"f:data\":{\"f:a\":{},\"f:b\":{}},\"f:metadata\":{\"f:labels\":{}}}");
  }
}
