package dev.converge.it;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/** Status of the test custom resources. */
public class WidgetStatus {
  private Long observedGeneration;
  private List<Condition> conditions = new ArrayList<>();
  private String handledBy;
  private String seenData;

  public Long getObservedGeneration() {
    return observedGeneration;
  }

  public void setObservedGeneration(Long observedGeneration) {
    this.observedGeneration = observedGeneration;
  }

  public List<Condition> getConditions() {
    return conditions;
  }

  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions;
  }

  public String getHandledBy() {
    return handledBy;
  }

  public void setHandledBy(String handledBy) {
    this.handledBy = handledBy;
  }

  public String getSeenData() {
    return seenData;
  }

  public void setSeenData(String seenData) {
    this.seenData = seenData;
  }
}
