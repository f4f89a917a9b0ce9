package dev.converge.example.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.converge.crd.annotation.Default;
import dev.converge.crd.annotation.Description;
import dev.converge.crd.annotation.Length;
import dev.converge.crd.annotation.Matches;
import dev.converge.crd.annotation.Maximum;
import dev.converge.crd.annotation.Minimum;
import dev.converge.crd.annotation.Required;

/**
 * What the user asks for. Defaults are applied by the API server from the CRD schema.
 *
 * @param image the container image reference
 * @param replicas the number of pods, 0 or more (0 keeps the Deployment and Service without pods);
 *     the server defaults it to 1
 * @param configMapName the ConfigMap whose keys become the environment; optional
 * @param port the container and Service port; the server defaults it to 8080
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AppDeploymentSpec(
    @Required
        @Description(
            "Container image reference, e.g. registry.example.com/team/app:1.2.3 or nginx@sha256:<64 hex>.")
        String image,
    @Minimum(0)
        @Default("1")
        @Description("Number of pods; 0 scales to zero, as a Deployment allows.")
        Integer replicas,
    @Matches("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")
        @Length(max = 253)
        @Description(
            "ConfigMap in the same namespace whose keys become the container's environment;"
                + " a change of its content rolls the pods.")
        String configMapName,
    @Minimum(1)
        @Maximum(65535)
        @Default("8080")
        @Description("Port the container listens on; the Service exposes the same port.")
        Integer port) {

  /** Replicas when {@code spec.replicas} is not given. */
  public static final int DEFAULT_REPLICAS = 1;

  /** Container port when {@code spec.port} is not given. */
  public static final int DEFAULT_PORT = 8080;

  /** {@code replicas}, or its default when the server has not defaulted it (e.g. in unit tests). */
  public int replicasOrDefault() {
    return replicas == null ? DEFAULT_REPLICAS : replicas;
  }

  /** {@code port}, or its default. */
  public int portOrDefault() {
    return port == null ? DEFAULT_PORT : port;
  }

  /** True when a ConfigMap is referenced. */
  public boolean referencesConfigMap() {
    return configMapName != null && !configMapName.isBlank();
  }
}
