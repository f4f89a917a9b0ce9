package dev.converge.it;

/** Spec of the test custom resources: what the test reconcilers should do. */
public class WidgetSpec {
  /** Behaviour selector, interpreted by each test's reconciler. */
  private String mode = "done";

  /** A ConfigMap the widget references (for the watched-kind tests). */
  private String configMapName;

  /** Free text copied into owned objects. */
  private String data;

  public String getMode() {
    return mode;
  }

  public void setMode(String mode) {
    this.mode = mode;
  }

  public String getConfigMapName() {
    return configMapName;
  }

  public void setConfigMapName(String configMapName) {
    this.configMapName = configMapName;
  }

  public String getData() {
    return data;
  }

  public void setData(String data) {
    this.data = data;
  }
}
