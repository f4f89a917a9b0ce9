package dev.converge.strategy.update.internal;

import dev.converge.schema.ApiKind;
import dev.converge.schema.ResourceTree;
import dev.converge.strategy.ServerFieldPreserver;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Keeps what the API server allocated for a Service — {@code clusterIP}, {@code clusterIPs}, {@code
 * ipFamilies}, {@code ipFamilyPolicy}, each port's {@code nodePort} and {@code healthCheckNodePort}
 * — when the outgoing object leaves them empty. Without this a PUT either fails ("may not change
 * once set") or, for node ports, silently re-allocates them and breaks clients that use them.
 */
public final class ServicePreserver implements ServerFieldPreserver {

  private static final ApiKind SERVICE = new ApiKind("v1", "Service");

  @Override
  public boolean appliesTo(ApiKind kind) {
    return SERVICE.equals(kind);
  }

  @Override
  @SuppressWarnings("unchecked")
  public void preserve(Map<String, Object> live, Map<String, Object> outgoing) {
    Map<String, Object> liveSpec = ResourceTree.mapAt(live, "spec").orElse(null);
    if (liveSpec == null) {
      return;
    }
    Map<String, Object> spec = ResourceTree.mapAtOrCreate(outgoing, "spec");
    String type =
        String.valueOf(spec.getOrDefault("type", liveSpec.getOrDefault("type", "ClusterIP")));
    if (!"ExternalName".equals(type)) {
      for (String field : List.of("clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy")) {
        ServerFieldPreserver.keepIfUnset(live, outgoing, "spec", field);
      }
    }
    boolean nodePorts = "NodePort".equals(type) || "LoadBalancer".equals(type);
    if ("LoadBalancer".equals(type)) {
      ServerFieldPreserver.keepIfUnset(live, outgoing, "spec", "healthCheckNodePort");
    }
    if (nodePorts
        && spec.get("ports") instanceof List<?> ports
        && liveSpec.get("ports") instanceof List<?> livePorts) {
      for (Object port : ports) {
        if (port instanceof Map<?, ?> p && ServerFieldPreserver.isUnset(p.get("nodePort"))) {
          Object match =
              livePorts.stream()
                  .filter(lp -> lp instanceof Map<?, ?> m && samePort(m, p))
                  .findFirst()
                  .orElse(null);
          if (match instanceof Map<?, ?> m && !ServerFieldPreserver.isUnset(m.get("nodePort"))) {
            ((Map<String, Object>) p).put("nodePort", m.get("nodePort"));
          }
        }
      }
    }
  }

  private static boolean samePort(Map<?, ?> live, Map<?, ?> wanted) {
    if (wanted.get("name") != null && live.get("name") != null) {
      return wanted.get("name").equals(live.get("name"));
    }
    return Objects.equals(String.valueOf(live.get("port")), String.valueOf(wanted.get("port")))
        && Objects.equals(protocol(live), protocol(wanted));
  }

  private static Object protocol(Map<?, ?> port) {
    Object protocol = port.get("protocol");
    return protocol == null ? "TCP" : protocol;
  }
}
