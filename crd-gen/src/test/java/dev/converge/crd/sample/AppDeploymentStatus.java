package dev.converge.crd.sample;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** Status of the AppDeployment sample (a kubebuilder-style operator's API). */
public class AppDeploymentStatus {
  public int readyReplicas;
  public String phase;
  public long observedGeneration;
  public List<Condition> conditions;
}
