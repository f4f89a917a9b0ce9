package dev.converge.example.webhook;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.api.v2.AppDeploymentV2;
import dev.converge.example.api.v2.AppDeploymentV2Spec;
import dev.converge.example.api.v2.AppDeploymentV2Spec.NamedPort;
import dev.converge.webhooks.Converter;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * v1 ({@code port}) to v2 ({@code ports}) and back. v1's port is v2's first port, named {@code
 * http}; what v1 cannot hold (other names, more ports) is kept in the annotation {@value #PORTS}
 * while the object is stored as v1, so a v2 client reads back what it wrote.
 */
public final class AppDeploymentConversion implements Converter<AppDeployment, AppDeploymentV2> {

  public static final String PORTS = "apps.converge.dev/v2-ports";
  private static final String DEFAULT_NAME = "http";
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  @Override
  public AppDeploymentV2 convert(AppDeployment from) {
    AppDeploymentV2 to = new AppDeploymentV2();
    to.setMetadata(from.getMetadata());
    to.setStatus(from.getStatus());
    AppDeploymentSpec spec = from.getSpec();
    if (spec != null) {
      Map<String, String> annotations = from.getMetadata().getAnnotations();
      String kept = annotations == null ? null : annotations.remove(PORTS);
      List<NamedPort> ports =
          new ArrayList<>(
              kept == null ? List.of() : Arrays.asList(JSON.unmarshal(kept, NamedPort[].class)));
      if (spec.port() != null) {
        String name = ports.isEmpty() ? DEFAULT_NAME : ports.get(0).name();
        if (ports.isEmpty()) {
          ports.add(null);
        }
        ports.set(0, new NamedPort(name, spec.port()));
      }
      to.setSpec(
          new AppDeploymentV2Spec(
              spec.image(), spec.replicas(), spec.configMapName(), ports.isEmpty() ? null : ports));
    }
    return to;
  }

  @Override
  public AppDeployment convertBack(AppDeploymentV2 from) {
    AppDeployment to = new AppDeployment();
    to.setMetadata(from.getMetadata());
    to.setStatus(from.getStatus());
    AppDeploymentV2Spec spec = from.getSpec();
    if (spec != null) {
      List<NamedPort> ports = spec.ports() == null ? List.of() : spec.ports();
      if (ports.size() > 1 || (ports.size() == 1 && !DEFAULT_NAME.equals(ports.get(0).name()))) {
        Map<String, String> annotations = new HashMap<>();
        if (from.getMetadata().getAnnotations() != null) {
          annotations.putAll(from.getMetadata().getAnnotations());
        }
        annotations.put(PORTS, JSON.asJson(ports));
        to.getMetadata().setAnnotations(annotations);
      }
      to.setSpec(
          new AppDeploymentSpec(
              spec.image(),
              spec.replicas(),
              spec.configMapName(),
              ports.isEmpty() ? null : ports.get(0).port()));
    }
    return to;
  }
}
