package dev.converge.docscheck.given;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** The custom resource of the READMEs' examples: a workload with an image and a replica count. */
@Group("example.com")
@Version("v1")
public class Widget extends CustomResource<WidgetSpec, WidgetStatus> implements Namespaced {

  public Widget() {}

  /** A widget named {@code name} (no namespace: the client's) with {@code spec}. */
  public Widget(String name, WidgetSpec spec) {
    setMetadata(new ObjectMetaBuilder().withName(name).build());
    setSpec(spec);
  }
}
