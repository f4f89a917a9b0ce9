package dev.converge.docscheck.given;

/** What a {@link Widget} asks for: an image, a replica count and an optional ConfigMap. */
public class WidgetSpec {
  private String image;
  private int replicas = 1;
  private String configMapName;

  public WidgetSpec() {}

  public WidgetSpec(String image, int replicas) {
    this.image = image;
    this.replicas = replicas;
  }

  public String getImage() {
    return image;
  }

  public void setImage(String image) {
    this.image = image;
  }

  public int getReplicas() {
    return replicas;
  }

  public void setReplicas(int replicas) {
    this.replicas = replicas;
  }

  public String getConfigMapName() {
    return configMapName;
  }

  public void setConfigMapName(String configMapName) {
    this.configMapName = configMapName;
  }
}
