package dev.converge.crd.sample;

import dev.converge.crd.annotation.PrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The AppDeployment sample, kubebuilder marker for kubebuilder marker: {@code
 * +kubebuilder:object:root}, {@code subresource:status} (a status type), and the printer columns
 * the example operator shows. The example operator defines the real class in its own module; this
 * one proves the mapping.
 */
@Group("sample.crd.converge.dev")
@Version("v1")
@ShortNames("appdep")
@PrinterColumn(name = "Image", type = "string", jsonPath = ".spec.image")
@PrinterColumn(name = "Replicas", type = "integer", jsonPath = ".spec.replicas")
@PrinterColumn(name = "Ready", type = "integer", jsonPath = ".status.readyReplicas")
@PrinterColumn(name = "Phase", type = "string", jsonPath = ".status.phase")
@PrinterColumn(name = "Age", type = "date", jsonPath = ".metadata.creationTimestamp")
public class AppDeployment extends CustomResource<AppDeploymentSpec, AppDeploymentStatus>
    implements Namespaced {
  private static final long serialVersionUID = 1L;
}
