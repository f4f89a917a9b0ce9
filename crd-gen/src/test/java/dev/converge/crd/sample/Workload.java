package dev.converge.crd.sample;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A resource that embeds fabric8 model types an operator typically reuses (pod template,
 * resources).
 */
@Group("workloads.crd.converge.dev")
@Version("v1")
public class Workload extends CustomResource<WorkloadSpec, Void> implements Namespaced {
  private static final long serialVersionUID = 1L;
}
