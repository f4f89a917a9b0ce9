package dev.converge.strategy.patch.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.strategy.tree.ResourceTree;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreeWayMergePatchTest {

  private static Map<String, Object> tree(String json) {
    return ResourceTree.parse(json);
  }

  @Test
  void nothingToSendWhenLiveHoldsDesiredPlusDefaultsAndForeignFields() {
    Map<String, Object> desired = tree("""
        {"metadata":{"labels":{"app":"a"}},"spec":{"replicas":2}}""");
    Map<String, Object> live = tree("""
        {"metadata":{"labels":{"app":"a","team":"x"},"resourceVersion":"9"},
         "spec":{"replicas":2,"revisionHistoryLimit":10}}""");

    assertThat(ThreeWayMergePatch.diff(ThreeWayMergePatch.fieldsOf(desired), desired, live)).isEmpty();
  }

  @Test
  void fieldsDroppedFromDesiredAreDeletedButOnlyThoseThisControllerApplied() {
    Map<String, Object> last = ThreeWayMergePatch.fieldsOf(tree("""
        {"metadata":{"labels":{"app":"a","removable":"yes"}},"data":{"k":"v","old":"1"}}"""));
    Map<String, Object> desired = tree("""
        {"metadata":{"labels":{"app":"a"}},"data":{"k":"v2"}}""");
    Map<String, Object> live = tree("""
        {"metadata":{"labels":{"app":"a","removable":"yes","team":"x"}},"data":{"k":"v","old":"1","theirs":"2"}}""");

    Map<String, Object> patch = ThreeWayMergePatch.diff(last, desired, live);

    assertThat(ResourceTree.canonicalJson(patch)).isEqualTo(ResourceTree.canonicalJson(tree("""
        {"metadata":{"labels":{"removable":null}},"data":{"k":"v2","old":null}}""")));
  }

  @Test
  void aMapDroppedWholeFromDesiredLosesOnlyTheKeysThisControllerApplied() {
    Map<String, Object> last = ThreeWayMergePatch.fieldsOf(tree("""
        {"metadata":{"annotations":{"example.com/removable":"yes"}}}"""));
    Map<String, Object> live = tree("""
        {"metadata":{"annotations":{"example.com/removable":"yes","other.example/note":"keep"}}}""");

    Map<String, Object> patch = ThreeWayMergePatch.diff(last, tree("{\"metadata\":{}}"), live);

    assertThat(ResourceTree.canonicalJson(patch))
        .isEqualTo("{\"metadata\":{\"annotations\":{\"example.com/removable\":null}}}");
  }

  @Test
  void theRecordHoldsKeysNotValues() {
    assertThat(ResourceTree.canonicalJson(ThreeWayMergePatch.fieldsOf(tree("""
        {"data":{"password":"c2VjcmV0"},"spec":{"ports":[{"port":80}]}}"""))))
        .isEqualTo("{\"data\":{\"password\":1},\"spec\":{\"ports\":1}}");
  }
}
