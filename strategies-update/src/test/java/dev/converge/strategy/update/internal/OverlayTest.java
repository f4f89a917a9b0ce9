package dev.converge.strategy.update.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.strategy.tree.ResourceTree;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OverlayTest {

  @SuppressWarnings("unchecked")
  private static Map<String, Object> tree(String json) {
    return ResourceTree.parse(json);
  }

  @Test
  void desiredWinsWhereItSpeaksAndLiveStaysElsewhere() {
    Map<String, Object> live = tree("""
        {"metadata":{"labels":{"app":"a","team":"other"},"resourceVersion":"7"},
         "spec":{"replicas":1,"revisionHistoryLimit":10}}""");
    Map<String, Object> desired = tree("""
        {"metadata":{"labels":{"app":"b"}},"spec":{"replicas":3}}""");

    Object merged = Overlay.apply(live, desired);

    assertThat(merged).isEqualTo(tree("""
        {"metadata":{"labels":{"app":"b","team":"other"},"resourceVersion":"7"},
         "spec":{"replicas":3,"revisionHistoryLimit":10}}"""));
    assertThat(live).isEqualTo(tree("""
        {"metadata":{"labels":{"app":"a","team":"other"},"resourceVersion":"7"},
         "spec":{"replicas":1,"revisionHistoryLimit":10}}"""));
  }

  @Test
  void listElementsKeepTheirServerDefaultsWhenMatchedByNameAndDroppedElementsGo() {
    Map<String, Object> live = tree("""
        {"containers":[{"name":"side","image":"s:1"},
                       {"name":"app","image":"a:1","terminationMessagePath":"/dev/termination-log"}]}""");
    Map<String, Object> desired = tree("""
        {"containers":[{"name":"app","image":"a:2"}]}""");

    assertThat(Overlay.apply(live, desired)).isEqualTo(tree("""
        {"containers":[{"name":"app","image":"a:2","terminationMessagePath":"/dev/termination-log"}]}"""));
  }

  @SuppressWarnings("unchecked")
  @Test
  void servicePortsMatchByPortAndProtocolSoANodePortIsNotTakenFromAnotherPort() {
    Map<String, Object> live = tree("""
        {"ports":[{"port":443,"protocol":"TCP","targetPort":8443,"nodePort":30443},
                  {"port":80,"protocol":"TCP","targetPort":8080,"nodePort":30080}]}""");
    Map<String, Object> desired = tree("""
        {"ports":[{"port":80,"targetPort":9090}]}""");

    List<Object> ports = (List<Object>) ((Map<?, ?>) Overlay.apply(live, desired)).get("ports");

    assertThat(ports).containsExactly((Object) tree("""
        {"port":80,"protocol":"TCP","targetPort":9090,"nodePort":30080}"""));
  }
}
