package dev.converge.strategy;

import java.util.Map;

/**
 * Teaches strategies that write whole objects (the update strategy) which fields of one kind the API
 * server assigns or defaults and must survive a write whose desired object leaves them empty — for
 * example a Service's {@code spec.clusterIP} or a custom resource's defaulted {@code spec.shard}.
 *
 * <p>Found with {@link java.util.ServiceLoader}: list implementations in {@code
 * META-INF/services/dev.converge.strategy.ServerFieldPreserver}. Objects are given as JSON trees
 * ({@code Map}/{@code List}/scalars) so that one preserver works for typed and generic resources.
 */
public interface ServerFieldPreserver {

  /** True when this preserver knows fields of {@code kind}. */
  boolean appliesTo(ApiKind kind);

  /**
   * Copies server-assigned values from {@code live} into {@code outgoing} wherever {@code outgoing}
   * leaves them unset; must not change anything {@code outgoing} sets explicitly.
   *
   * @param live the object as the server returned it (read only)
   * @param outgoing the object about to be written (mutable)
   */
  void preserve(Map<String, Object> live, Map<String, Object> outgoing);
}
