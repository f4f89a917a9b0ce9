package dev.converge.crd.compare;

import java.util.List;

/** Status of {@link Gizmo}. */
public class GizmoStatus {
  @io.fabric8.crd.generator.annotation.PrinterColumn(name = "Phase")
  @dev.converge.crd.annotation.PrinterColumn(name = "Phase")
  public String phase;

  @io.fabric8.crd.generator.annotation.PrinterColumn(name = "Generation", priority = 1)
  @dev.converge.crd.annotation.PrinterColumn(name = "Generation", priority = 1)
  public long observedGeneration;

  public List<String> messages;
}
