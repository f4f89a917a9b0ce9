package dev.converge.webhooks.sample;

import dev.converge.webhooks.Converter;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * v1 holds one unnamed port; v2 a list of named ones. What v1 cannot hold (the names, the other
 * ports) goes into an annotation on the way down and comes back from it on the way up.
 */
public final class GadgetConversion implements Converter<Gadget, GadgetV2> {

  public static final String PORTS_ANNOTATION = "samples.webhooks.converge.dev/v2-ports";
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  @Override
  public GadgetV2 convert(Gadget from) {
    GadgetV2 to = new GadgetV2();
    to.setMetadata(from.getMetadata());
    GadgetSpec spec = from.getSpec();
    if (spec != null) {
      Map<String, String> annotations = from.getMetadata().getAnnotations();
      String saved = annotations == null ? null : annotations.remove(PORTS_ANNOTATION);
      List<GadgetV2Spec.NamedPort> ports = new ArrayList<>();
      if (saved != null) {
        ports.addAll(Arrays.asList(JSON.unmarshal(saved, GadgetV2Spec.NamedPort[].class)));
      }
      if (spec.port() != null) {
        if (ports.isEmpty()) {
          ports.add(new GadgetV2Spec.NamedPort("http", spec.port()));
        } else {
          ports.set(0, new GadgetV2Spec.NamedPort(ports.get(0).name(), spec.port()));
        }
      }
      to.setSpec(
          new GadgetV2Spec(spec.color(), ports.isEmpty() ? null : ports, spec.configMapName()));
    }
    return to;
  }

  @Override
  public Gadget convertBack(GadgetV2 from) {
    Gadget to = new Gadget();
    to.setMetadata(from.getMetadata());
    GadgetV2Spec spec = from.getSpec();
    if (spec != null) {
      List<GadgetV2Spec.NamedPort> ports = spec.ports() == null ? List.of() : spec.ports();
      boolean plain = ports.size() == 1 && "http".equals(ports.get(0).name());
      if (!ports.isEmpty() && !plain) {
        Map<String, String> annotations = new HashMap<>();
        if (from.getMetadata().getAnnotations() != null) {
          annotations.putAll(from.getMetadata().getAnnotations());
        }
        annotations.put(PORTS_ANNOTATION, JSON.asJson(ports));
        to.getMetadata().setAnnotations(annotations);
      }
      to.setSpec(
          new GadgetSpec(
              spec.color(), ports.isEmpty() ? null : ports.get(0).port(), spec.configMapName()));
    }
    return to;
  }
}
