package dev.converge.status;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * A status that carries a list of conditions. A status record with a {@code conditions} component
 * implements it by saying so ({@code record MyStatus(..., List<Condition> conditions, ...)
 * implements HasConditions}), which lets {@link WantedConditions#status} fold a reconcile's
 * conditions into the stored ones.
 */
public interface HasConditions {

  /**
   * The conditions as stored.
   *
   * @return the conditions; null or empty when there are none yet
   */
  List<Condition> conditions();
}
