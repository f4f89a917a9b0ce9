package dev.converge.strategy.update;

import dev.converge.schema.ApiKind;
import dev.converge.strategy.ServerFieldPreserver;
import java.util.Map;

/**
 * What a user writes to teach the update strategy about a CRD's server-assigned field: here a
 * {@code spec.shard} a webhook of the example's imaginary {@code Cache} kind assigns on create.
 * Listed in this source set's META-INF/services.
 */
public final class ShardPreserver implements ServerFieldPreserver {

  static final ApiKind CACHE = new ApiKind("example.com/v1", "Cache");

  @Override
  public boolean appliesTo(ApiKind kind) {
    return CACHE.equals(kind);
  }

  @Override
  public void preserve(Map<String, Object> live, Map<String, Object> outgoing) {
    ServerFieldPreserver.keepIfUnset(live, outgoing, "spec", "shard");
  }
}
