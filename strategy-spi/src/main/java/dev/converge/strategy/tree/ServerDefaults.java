package dev.converge.strategy.tree;

import dev.converge.schema.Comparison;
import dev.converge.schema.ListSchema;
import dev.converge.schema.ListType;
import dev.converge.schema.MapSchema;
import dev.converge.schema.ResourceTree;
import dev.converge.schema.SchemaNode;
import dev.converge.strategy.StrategyContext;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's defaults inside values desired replaces whole. An atomic list or map is written and
 * compared whole, and the server fills declared fields into it that desired leaves out: a
 * NetworkPolicy port's {@code protocol}, a RoleBinding subject's {@code apiGroup}, a LimitRange's
 * {@code default} taken from its {@code max}. Compared with desired as written, live would always
 * differ and every reconcile would write again; and which fields a server fills, and with what,
 * depends on the kind, the version and the values, so no table can know them all.
 *
 * <p>When live holds declared fields inside an atomic value that desired does not set, this class
 * asks the server what it would store for desired: a server-side dry-run create of the same object
 * under a generated name (nothing is stored). Desired's atomic values are then taken as the server
 * returned them. The answer is kept per object and desired value, so a steady state asks once per
 * desired change, and not at all for objects without such values. When the dry run is refused (a
 * quota, a webhook), desired stays as written: the strategy writes, as it would without this.
 */
public final class ServerDefaults {

  private static final Logger log = LoggerFactory.getLogger(ServerDefaults.class);
  private static final int CAPACITY = 4096;

  /** The server's form of desired, by object uid and desired value. */
  private static final Map<String, Map<String, Object>> LEARNED =
      Collections.synchronizedMap(
          new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Map<String, Object>> eldest) {
              return size() > CAPACITY;
            }
          });

  private ServerDefaults() {}

  /**
   * Desired with its atomic values as the server would store them, when live suggests the server
   * fills fields into them; otherwise {@code wanted} itself.
   *
   * @param schema the schema of the kind, from {@link dev.converge.schema.ResourceSchemas}
   * @param live the live object's tree, or null when the object does not exist yet
   * @param wanted desired's tree ({@link DesiredState}); not changed
   * @param type the Java class of the resource, for the dry-run request
   * @param context the context whose client sends the dry run
   * @return a new tree with the server's atomic values, or {@code wanted} itself when there is
   *     nothing to learn or the dry run was refused (logged at debug level)
   */
  public static Map<String, Object> fillAtomicValues(
      SchemaNode schema,
      Map<String, Object> live,
      Map<String, Object> wanted,
      Class<? extends HasMetadata> type,
      StrategyContext context) {
    if (live == null || !Comparison.hasUnexplainedFieldsInAtomicValues(schema, live, wanted)) {
      return wanted;
    }
    Object uid = ResourceTree.mapAt(live, "metadata").map(m -> m.get("uid")).orElse("");
    String key = uid + "/" + ResourceTree.canonicalJson(wanted).hashCode() + "/" + type.getName();
    Map<String, Object> stored = LEARNED.get(key);
    if (stored == null) {
      stored = dryRunCreate(wanted, type, context);
      if (stored == null) {
        return wanted;
      }
      LEARNED.put(key, stored);
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> filled = (Map<String, Object>) fill(schema, wanted, stored);
    return filled;
  }

  private static Map<String, Object> dryRunCreate(
      Map<String, Object> wanted, Class<? extends HasMetadata> type, StrategyContext context) {
    Map<String, Object> body = ResourceTree.copyMap(wanted);
    Map<String, Object> metadata = ResourceTree.mapAtOrCreate(body, "metadata");
    Object name = metadata.remove("name");
    metadata.put("generateName", name + "-");
    metadata.remove("ownerReferences");
    metadata.remove("finalizers");
    try {
      HasMetadata created =
          context.client().resource(ResourceTree.toResource(body, type)).dryRun().create();
      return created == null ? null : ResourceTree.of(created);
    } catch (KubernetesClientException | IllegalArgumentException e) {
      log.debug(
          "{} {}: the server's defaults could not be learned by a dry-run create ({}); writing desired as it is",
          wanted.get("kind"),
          name,
          e.getMessage());
      return null;
    }
  }

  /** Desired with each atomic value replaced by the server's, matched by path and list keys. */
  private static Object fill(SchemaNode schema, Object want, Object stored) {
    if (stored == null) {
      return want;
    }
    if (want instanceof Map<?, ?> map) {
      if (schema instanceof MapSchema ms && ms.atomic()) {
        return stored instanceof Map<?, ?> ? ResourceTree.copy(stored) : want;
      }
      if (!(stored instanceof Map<?, ?> storedMap)) {
        return want;
      }
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach(
          (k, v) -> {
            String field = (String) k;
            SchemaNode child = schema instanceof MapSchema ms ? ms.child(field) : null;
            out.put(field, child == null ? v : fill(child, v, storedMap.get(field)));
          });
      return out;
    }
    if (want instanceof List<?> list
        && schema instanceof ListSchema ls
        && stored instanceof List<?> storedList) {
      if (ls.type() == ListType.ATOMIC) {
        return storedList.size() == list.size() ? ResourceTree.copy(storedList) : want;
      }
      if (ls.type() == ListType.MAP) {
        List<Object> out = new ArrayList<>();
        for (Object element : list) {
          Object counterpart = element instanceof Map<?, ?> e ? find(ls, storedList, e) : null;
          out.add(fill(ls.items(), element, counterpart));
        }
        return out;
      }
    }
    return want;
  }

  private static Object find(ListSchema schema, List<?> list, Map<?, ?> element) {
    for (Object candidate : list) {
      if (candidate instanceof Map<?, ?> c
          && schema.keys().stream()
              .allMatch(
                  k ->
                      java.util.Objects.equals(
                              String.valueOf(c.get(k)), String.valueOf(element.get(k)))
                          || element.get(k) == null)) {
        return candidate;
      }
    }
    return null;
  }
}
