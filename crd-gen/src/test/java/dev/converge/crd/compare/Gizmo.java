package dev.converge.crd.compare;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A resource written for both generators: every feature they share, annotated once for fabric8
 * ({@code io.fabric8.generator.annotation}, {@code io.fabric8.crd.generator.annotation}) and once
 * for Converge.
 */
@Group("gizmos.compare.converge.dev")
@Version("v1")
@ShortNames("gz")
@Categories("compare")
@AdditionalPrinterColumn(
    name = "Size",
    jsonPath = ".spec.size",
    type = AdditionalPrinterColumn.Type.INTEGER)
@dev.converge.crd.annotation.PrinterColumn(name = "Size", jsonPath = ".spec.size", type = "integer")
@io.fabric8.crd.generator.annotation.AdditionalSelectableField(jsonPath = ".spec.mode")
@dev.converge.crd.annotation.SelectableField(jsonPath = ".spec.mode")
@io.fabric8.crd.generator.annotation.Labels("app.kubernetes.io/part-of=compare")
@dev.converge.crd.annotation.CrdLabel(name = "app.kubernetes.io/part-of", value = "compare")
@io.fabric8.crd.generator.annotation.Annotations("example.com/owner=team-a")
@dev.converge.crd.annotation.CrdAnnotation(name = "example.com/owner", value = "team-a")
public class Gizmo extends CustomResource<GizmoSpec, GizmoStatus> implements Namespaced {
  private static final long serialVersionUID = 1L;
}
