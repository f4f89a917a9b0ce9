package ${package}.api;

import dev.converge.crd.annotation.PrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The custom resource of this operator. Its CRD is generated from this class and its spec and
 * status records at build time (target/deploy/widgets.example.com.yaml).
 */
@Group(Widget.GROUP)
@Version("v1")
@Kind("Widget")
@Plural("widgets")
@Singular("widget")
@PrinterColumn(name = "Image", jsonPath = ".spec.image")
@PrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
@PrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = "date")
public class Widget extends CustomResource<WidgetSpec, WidgetStatus> implements Namespaced {

  public static final String GROUP = "example.com";

  public static Widget of(String namespace, String name, WidgetSpec spec) {
    Widget widget = new Widget();
    widget.getMetadata().setNamespace(namespace);
    widget.getMetadata().setName(name);
    widget.setSpec(spec);
    return widget;
  }
}
