package dev.converge.strategy.update.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.schema.ApiKind;
import dev.converge.schema.ResourceTree;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServicePreserverTest {

  private final ServicePreserver preserver = new ServicePreserver();

  @Test
  void allocatedAddressesAndNodePortsSurviveAnOutgoingObjectThatLeavesThemEmpty() {
    Map<String, Object> live =
        ResourceTree.parse(
            """
        {"spec":{"type":"NodePort","clusterIP":"10.0.0.12","clusterIPs":["10.0.0.12"],
          "ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack",
          "ports":[{"name":"http","port":80,"protocol":"TCP","nodePort":31000}]}}""");
    Map<String, Object> outgoing =
        ResourceTree.parse(
            """
        {"spec":{"type":"NodePort","clusterIP":"","ports":[{"name":"http","port":80,"targetPort":8081}]}}""");

    preserver.preserve(live, outgoing);

    assertThat(outgoing)
        .isEqualTo(
            ResourceTree.parse(
                """
        {"spec":{"type":"NodePort","clusterIP":"10.0.0.12","clusterIPs":["10.0.0.12"],
          "ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack",
          "ports":[{"name":"http","port":80,"targetPort":8081,"nodePort":31000}]}}"""));
    assertThat(preserver.appliesTo(new ApiKind("v1", "Service"))).isTrue();
    assertThat(preserver.appliesTo(new ApiKind("v1", "ConfigMap"))).isFalse();
  }

  @Test
  void explicitValuesAreNotOverwrittenAndNodePortsAreDroppedWhenTheTypeNoLongerHasThem() {
    Map<String, Object> live =
        ResourceTree.parse(
            """
        {"spec":{"type":"NodePort","clusterIP":"10.0.0.12","ports":[{"port":80,"nodePort":31000}]}}""");
    Map<String, Object> toClusterIp =
        ResourceTree.parse(
            """
        {"spec":{"type":"ClusterIP","ports":[{"port":80}]}}""");
    Map<String, Object> explicit =
        ResourceTree.parse(
            """
        {"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":32000}]}}""");

    preserver.preserve(live, toClusterIp);
    preserver.preserve(live, explicit);

    assertThat(ResourceTree.mapAt(toClusterIp, "spec").orElseThrow())
        .containsEntry("clusterIP", "10.0.0.12");
    assertThat(ResourceTree.canonicalJson(toClusterIp)).doesNotContain("31000");
    assertThat(ResourceTree.canonicalJson(explicit)).contains("32000").doesNotContain("31000");
  }
}
