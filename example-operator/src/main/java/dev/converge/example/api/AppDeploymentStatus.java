package dev.converge.example.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.converge.crd.annotation.Description;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** What the operator observed. Written only through the status subresource. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AppDeploymentStatus {

  /** Condition type: all pods of the current template are ready. */
  public static final String READY = "Ready";

  /** Condition type: the referenced ConfigMap exists (True also when none is referenced). */
  public static final String CONFIG_RESOLVED = "ConfigResolved";

  @Description("Ready pods of the managed Deployment.")
  private Integer readyReplicas;

  @Description("Pending, Running or Failed.")
  private Phase phase;

  @Description("Ready and ConfigResolved, with reasons.")
  private List<Condition> conditions = new ArrayList<>();

  @Description("The metadata.generation this status was computed from.")
  private Long observedGeneration;

  public AppDeploymentStatus() {}

  public Integer getReadyReplicas() {
    return readyReplicas;
  }

  public void setReadyReplicas(Integer readyReplicas) {
    this.readyReplicas = readyReplicas;
  }

  public Phase getPhase() {
    return phase;
  }

  public void setPhase(Phase phase) {
    this.phase = phase;
  }

  public List<Condition> getConditions() {
    return conditions;
  }

  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions == null ? new ArrayList<>() : new ArrayList<>(conditions);
  }

  public Long getObservedGeneration() {
    return observedGeneration;
  }

  public void setObservedGeneration(Long observedGeneration) {
    this.observedGeneration = observedGeneration;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AppDeploymentStatus other
        && Objects.equals(readyReplicas, other.readyReplicas)
        && phase == other.phase
        && Objects.equals(conditions, other.conditions)
        && Objects.equals(observedGeneration, other.observedGeneration);
  }

  @Override
  public int hashCode() {
    return Objects.hash(readyReplicas, phase, conditions, observedGeneration);
  }

  @Override
  public String toString() {
    return "AppDeploymentStatus{phase=" + phase + ", readyReplicas=" + readyReplicas
        + ", observedGeneration=" + observedGeneration + ", conditions=" + conditions + "}";
  }
}
