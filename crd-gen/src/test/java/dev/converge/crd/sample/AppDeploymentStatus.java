package dev.converge.crd.sample;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** Status of the seeds' AppDeployment. */
public class AppDeploymentStatus {
  public int readyReplicas;
  public String phase;
  public long observedGeneration;
  public List<Condition> conditions;
}
