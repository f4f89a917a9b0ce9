package dev.converge.crd.sample;

import dev.converge.crd.annotation.Default;
import dev.converge.crd.annotation.Description;
import dev.converge.crd.annotation.Minimum;
import dev.converge.crd.annotation.Required;

/** Spec of the AppDeployment sample (a kubebuilder-style operator's API). */
public class AppDeploymentSpec {
  /** {@code +kubebuilder:validation:Required}. */
  @Required
  @Description("Container image to run.")
  public String image;

  /** {@code +kubebuilder:validation:Minimum=1}, {@code +kubebuilder:default=1}. */
  @Minimum(1)
  @Default("1")
  public int replicas = 1;

  /** Optional; a change rolls the pods. */
  @Description("ConfigMap whose content is mounted; a change triggers a rolling update.")
  public String configMapName;

  @Minimum(1)
  @Default("8080")
  public int port = 8080;
}
