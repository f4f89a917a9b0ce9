package dev.converge.example.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.converge.crd.annotation.Default;
import dev.converge.crd.annotation.Description;
import dev.converge.crd.annotation.Length;
import dev.converge.crd.annotation.Matches;
import dev.converge.crd.annotation.Maximum;
import dev.converge.crd.annotation.Minimum;
import dev.converge.crd.annotation.Required;
import java.util.Objects;

/** What the user asks for. Defaults are applied by the API server from the CRD schema. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AppDeploymentSpec {

  /** Replicas when {@code spec.replicas} is not given. */
  public static final int DEFAULT_REPLICAS = 1;

  /** Container port when {@code spec.port} is not given. */
  public static final int DEFAULT_PORT = 8080;

  @Required
  @Description("Container image reference, e.g. registry.example.com/team/app:1.2.3 or nginx@sha256:<64 hex>.")
  private String image;

  @Minimum(1)
  @Default("1")
  @Description("Number of pods.")
  private Integer replicas;

  @Matches("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")
  @Length(max = 253)
  @Description("ConfigMap in the same namespace whose keys become the container's environment;"
      + " a change of its content rolls the pods.")
  private String configMapName;

  @Minimum(1)
  @Maximum(65535)
  @Default("8080")
  @Description("Port the container listens on; the Service exposes the same port.")
  private Integer port;

  public AppDeploymentSpec() {}

  public AppDeploymentSpec(String image, Integer replicas, String configMapName, Integer port) {
    this.image = image;
    this.replicas = replicas;
    this.configMapName = configMapName;
    this.port = port;
  }

  public String getImage() {
    return image;
  }

  public void setImage(String image) {
    this.image = image;
  }

  public Integer getReplicas() {
    return replicas;
  }

  public void setReplicas(Integer replicas) {
    this.replicas = replicas;
  }

  public String getConfigMapName() {
    return configMapName;
  }

  public void setConfigMapName(String configMapName) {
    this.configMapName = configMapName;
  }

  public Integer getPort() {
    return port;
  }

  public void setPort(Integer port) {
    this.port = port;
  }

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

  @Override
  public boolean equals(Object o) {
    return o instanceof AppDeploymentSpec other
        && Objects.equals(image, other.image)
        && Objects.equals(replicas, other.replicas)
        && Objects.equals(configMapName, other.configMapName)
        && Objects.equals(port, other.port);
  }

  @Override
  public int hashCode() {
    return Objects.hash(image, replicas, configMapName, port);
  }

  @Override
  public String toString() {
    return "AppDeploymentSpec{image=" + image + ", replicas=" + replicas + ", configMapName="
        + configMapName + ", port=" + port + "}";
  }
}
