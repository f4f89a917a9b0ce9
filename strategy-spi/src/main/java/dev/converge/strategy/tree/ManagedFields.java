package dev.converge.strategy.tree;

import dev.converge.schema.FieldSet;
import dev.converge.schema.ResourceTree;
import dev.converge.strategy.StrategyContext;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@code metadata.managedFields} of a live object: which writer owns which fields, as the API
 * server recorded it.
 *
 * <p>Ownership that decides what to keep counts every entry, those of subresources included: a
 * {@code kubectl scale} or an autoscaler writes {@code spec.replicas} through {@code /scale}, and
 * the server records that as an {@code Update} entry with {@code subresource: scale} which owns the
 * field as much as a write of the object itself would.
 */
public final class ManagedFields {

  /**
   * The manager name the API server records for fabric8's PUT and POST requests when the client
   * keeps its default user agent (fabric8 cannot send a field manager on them).
   */
  public static final String FABRIC8_DEFAULT_MANAGER = "fabric8-kubernetes-client";

  private ManagedFields() {}

  /**
   * The entries of the object's main resource (not of its status or other subresources): where this
   * controller's own entries are looked for, since it writes only the object itself.
   *
   * @param liveTree the live object's tree
   * @return the entries as maps ({@code manager}, {@code operation}, {@code fieldsV1}, ...), in the
   *     server's order; empty when the object has none
   */
  public static List<Map<String, Object>> entries(Map<String, Object> liveTree) {
    return allEntries(liveTree).stream().filter(ManagedFields::isMainResource).toList();
  }

  /**
   * Every entry, those written through a subresource ({@code /scale}, {@code /status}) too.
   *
   * @param liveTree the live object's tree
   * @return the entries as maps, in the server's order; empty when the object has none
   */
  @SuppressWarnings("unchecked")
  public static List<Map<String, Object>> allEntries(Map<String, Object> liveTree) {
    Object list =
        ResourceTree.mapAt(liveTree, "metadata").map(m -> m.get("managedFields")).orElse(null);
    if (!(list instanceof List<?> l)) {
      return List.of();
    }
    return l.stream().filter(Map.class::isInstance).map(m -> (Map<String, Object>) m).toList();
  }

  /**
   * The manager name the API server records for this context's PUT and POST requests: its client's
   * user agent up to the first {@code /}.
   *
   * @param context the context whose client sends the requests
   * @return the manager name, {@value #FABRIC8_DEFAULT_MANAGER} when the client has no user agent
   */
  public static String userAgentManager(StrategyContext context) {
    String agent = context.client().getConfiguration().getUserAgent();
    if (agent == null || agent.isBlank()) {
      return FABRIC8_DEFAULT_MANAGER;
    }
    int slash = agent.indexOf('/');
    return slash < 0 ? agent : agent.substring(0, slash);
  }

  /**
   * The names this controller writes under: its field manager and its client's user-agent name.
   *
   * @param context the context the controller writes with
   * @return one or two manager names
   */
  public static Set<String> ownManagers(StrategyContext context) {
    return Set.copyOf(java.util.List.of(context.fieldManager(), userAgentManager(context)));
  }

  /**
   * The fields every manager other than {@code own} holds, under any operation and through any
   * subresource ({@code spec.replicas} an autoscaler set through {@code /scale} among them).
   *
   * @param liveTree the live object's tree
   * @param own the manager names of this controller ({@link #ownManagers})
   * @return the union of the other managers' fields
   */
  public static FieldSet ownedByOthers(Map<String, Object> liveTree, Set<String> own) {
    FieldSet out = FieldSet.empty();
    for (Map<String, Object> entry : allEntries(liveTree)) {
      if (!own.contains(String.valueOf(entry.get("manager")))) {
        out = out.union(fieldsOf(entry));
      }
    }
    return out;
  }

  /**
   * The field set of one entry.
   *
   * @param entry one managedFields entry, as a map
   * @return its {@code fieldsV1}; empty when it has none
   */
  public static FieldSet fieldsOf(Map<String, Object> entry) {
    return entry.get("fieldsV1") instanceof Map<?, ?> fields
        ? FieldSet.fromFieldsV1(fields)
        : FieldSet.empty();
  }

  /**
   * Whether an entry records writes of the object itself, not of a subresource.
   *
   * @param entry one managedFields entry, as a map
   * @return true when it names no subresource
   */
  public static boolean isMainResource(Map<String, Object> entry) {
    Object subresource = entry.get("subresource");
    return subresource == null || "".equals(subresource);
  }
}
