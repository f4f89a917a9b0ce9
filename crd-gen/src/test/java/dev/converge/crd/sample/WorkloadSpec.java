package dev.converge.crd.sample;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.List;

/** Spec of {@link Workload}. */
public class WorkloadSpec {
  public PodTemplateSpec template;
  public ResourceRequirements resources;
  public List<EnvVar> env;
  public LabelSelector selector;
}
