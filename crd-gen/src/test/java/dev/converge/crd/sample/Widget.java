package dev.converge.crd.sample;

import dev.converge.crd.annotation.Description;
import dev.converge.crd.annotation.PrinterColumn;
import dev.converge.crd.annotation.Rule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** A resource that uses every schema feature, for unit tests and the API server ITs. */
@Group("widgets.crd.converge.dev")
@Version("v1")
@Kind("Widget")
@Plural("widgets")
@Singular("widget")
@ShortNames({"wd", "wdg"})
@Categories("converge")
@Description("A widget exercising every schema feature.")
@PrinterColumn(
    name = "Size",
    type = "integer",
    jsonPath = ".spec.size",
    description = "Requested size")
@PrinterColumn(name = "Mode", jsonPath = ".spec.mode", priority = 1)
@PrinterColumn(name = "Age", type = "date", jsonPath = ".metadata.creationTimestamp")
@Rule(
    value =
        "!has(self.spec.size) || !has(self.spec.maxSize) || self.spec.size <= self.spec.maxSize",
    message = "size must not exceed maxSize")
public class Widget extends CustomResource<WidgetSpec, WidgetStatus> implements Namespaced {
  private static final long serialVersionUID = 1L;
}
