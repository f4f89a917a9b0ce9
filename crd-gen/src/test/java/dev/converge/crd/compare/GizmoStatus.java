package dev.converge.crd.compare;

import java.util.List;

/** Status of {@link Gizmo}. */
public class GizmoStatus {
  public String phase;
  public long observedGeneration;
  public List<String> messages;
}
