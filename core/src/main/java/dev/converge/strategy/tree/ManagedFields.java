package dev.converge.strategy.tree;

import dev.converge.schema.FieldSet;
import dev.converge.strategy.StrategyContext;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@code metadata.managedFields} of a live object: which writer owns which fields, as the API
 * server recorded it.
 */
public final class ManagedFields {

  /**
   * The manager name the API server records for fabric8's PUT and POST requests when the client
   * keeps its default user agent (fabric8 cannot send a field manager on them).
   */
  public static final String FABRIC8_DEFAULT_MANAGER = "fabric8-kubernetes-client";

  private ManagedFields() {}

  /** The entries of the object's main resource (not of its status or other subresources). */
  @SuppressWarnings("unchecked")
  public static List<Map<String, Object>> entries(Map<String, Object> liveTree) {
    Object list =
        ResourceTree.mapAt(liveTree, "metadata").map(m -> m.get("managedFields")).orElse(null);
    if (!(list instanceof List<?> l)) {
      return List.of();
    }
    return l.stream()
        .filter(Map.class::isInstance)
        .map(m -> (Map<String, Object>) m)
        .filter(ManagedFields::isMainResource)
        .toList();
  }

  /**
   * The manager name the API server records for this context's PUT and POST requests: its client's
   * user agent up to the first {@code /}.
   */
  public static String userAgentManager(StrategyContext context) {
    String agent = context.client().getConfiguration().getUserAgent();
    if (agent == null || agent.isBlank()) {
      return FABRIC8_DEFAULT_MANAGER;
    }
    int slash = agent.indexOf('/');
    return slash < 0 ? agent : agent.substring(0, slash);
  }

  /** The names this controller writes under: its field manager and its client's user-agent name. */
  public static Set<String> ownManagers(StrategyContext context) {
    return Set.copyOf(java.util.List.of(context.fieldManager(), userAgentManager(context)));
  }

  /** The fields every manager other than {@code own} holds, under any operation. */
  public static FieldSet ownedByOthers(Map<String, Object> liveTree, Set<String> own) {
    FieldSet out = FieldSet.empty();
    for (Map<String, Object> entry : entries(liveTree)) {
      if (!own.contains(String.valueOf(entry.get("manager")))) {
        out = out.union(fieldsOf(entry));
      }
    }
    return out;
  }

  /** The field set of one entry. */
  public static FieldSet fieldsOf(Map<String, Object> entry) {
    return entry.get("fieldsV1") instanceof Map<?, ?> fields
        ? FieldSet.fromFieldsV1(fields)
        : FieldSet.empty();
  }

  private static boolean isMainResource(Map<String, Object> entry) {
    Object subresource = entry.get("subresource");
    return subresource == null || "".equals(subresource);
  }
}
