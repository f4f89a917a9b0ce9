package dev.converge.testing.conformance;

import dev.converge.testing.conformance.internal.JsonValue;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The independent judge of the conformance kit. It reads live objects with a plain client (as
 * generic JSON, so nothing of a typed model or of Converge stands between the server and the check)
 * and answers two questions:
 *
 * <ul>
 *   <li>does live meet {@link Expectation}s written out by hand, and
 *   <li>does live hold, for every field desired names, exactly what a fresh create of the same
 *       desired object holds? The fresh create is a server-side dry run under another name in the
 *       same namespace, so defaulting, normalisation (quantities, int-or-string) and validation are
 *       the API server's own, never a guess of ours.
 * </ul>
 */
public final class Judge {

  /**
   * Fields the server allocates differently for every object (Service IPs and ports): compared only
   * for being present, unless one side holds {@code None} (a headless Service).
   */
  public static final Set<String> ALLOCATED =
      Set.of("clusterIP", "clusterIPs", "nodePort", "healthCheckNodePort");

  private static final Set<String> METADATA_COMPARED =
      Set.of("labels", "annotations", "finalizers");
  private static final Set<String> SET_LISTS = Set.of("metadata.finalizers");

  private final KubernetesClient reader;

  /**
   * A judge reading with {@code reader}, a client that is not the one of the strategy under test.
   *
   * @param reader the client the judge reads and dry-runs with
   */
  public Judge(KubernetesClient reader) {
    this.reader = Objects.requireNonNull(reader, "reader");
  }

  /**
   * The live object named like {@code ref}, as the API server returns it; empty when absent.
   *
   * @param ref names the object by its apiVersion, kind, namespace and name
   * @return the object's JSON tree, or empty
   */
  public Optional<Map<String, Object>> live(HasMetadata ref) {
    GenericKubernetesResource found =
        reader
            .genericKubernetesResources(ref.getApiVersion(), ref.getKind())
            .inNamespace(ref.getMetadata().getNamespace())
            .withName(ref.getMetadata().getName())
            .get();
    return Optional.ofNullable(found).map(JsonValue::tree);
  }

  /**
   * The live object, which must exist.
   *
   * @param ref names the object by its apiVersion, kind, namespace and name
   * @return the object's JSON tree
   * @throws AssertionError naming the object when it is absent
   */
  public Map<String, Object> require(HasMetadata ref) {
    return live(ref).orElseThrow(() -> new AssertionError(describe(ref) + " is absent"));
  }

  /**
   * Mismatches of the live object against {@code expectations}; empty when all hold.
   *
   * @param ref names the object by its apiVersion, kind, namespace and name
   * @param expectations what live must meet
   * @return one line per expectation live does not meet
   * @throws AssertionError naming the object when it is absent
   */
  public List<String> check(HasMetadata ref, List<Expectation> expectations) {
    Map<String, Object> live = require(ref);
    List<String> mismatches = new ArrayList<>();
    expectations.forEach(e -> e.check(live).ifPresent(mismatches::add));
    return mismatches;
  }

  /**
   * What a fresh create of {@code desired} holds: a server-side dry-run create of the same object
   * under the name {@code dry-<name>} in the same namespace. Throws the server's error when it
   * refuses the object (then desired is not a valid object, and no strategy is at fault).
   *
   * @param desired the desired object
   * @return the JSON tree the API server would store for a create of it
   */
  public Map<String, Object> freshCreate(HasMetadata desired) {
    Map<String, Object> tree = JsonValue.tree(desired);
    @SuppressWarnings("unchecked")
    Map<String, Object> metadata = (Map<String, Object>) tree.get("metadata");
    String name = "dry-" + desired.getMetadata().getName();
    metadata.put("name", name.length() > 63 ? name.substring(0, 63).replaceAll("-+$", "") : name);
    for (String key :
        List.of("resourceVersion", "uid", "creationTimestamp", "managedFields", "generation")) {
      metadata.remove(key);
    }
    tree.remove("status");
    GenericKubernetesResource object =
        reader.getKubernetesSerialization().convertValue(tree, GenericKubernetesResource.class);
    GenericKubernetesResource created =
        reader
            .genericKubernetesResources(desired.getApiVersion(), desired.getKind())
            .inNamespace(desired.getMetadata().getNamespace())
            .resource(object)
            .dryRun()
            .create();
    return JsonValue.tree(created);
  }

  /**
   * The paths desired names, each down to a scalar or a list (lists are compared whole); of
   * metadata only labels, annotations and finalizers; a Secret's stringData as the data it becomes;
   * never status.
   *
   * @param desired the desired object's JSON tree
   * @return the paths, in the order desired names them
   */
  public static List<FieldPath> desiredPaths(Map<String, Object> desired) {
    List<FieldPath> paths = new ArrayList<>();
    desired.forEach(
        (key, value) -> {
          if (key.equals("apiVersion") || key.equals("kind") || key.equals("status")) {
            return;
          }
          if (key.equals("stringData") && value instanceof Map<?, ?> strings) {
            // a Secret's stringData is written into data; the fresh create shows it there
            strings.keySet().forEach(k -> paths.add(FieldPath.of("data").key(String.valueOf(k))));
            return;
          }
          if (key.equals("metadata") && value instanceof Map<?, ?> meta) {
            meta.forEach(
                (k, v) -> {
                  if (METADATA_COMPARED.contains(String.valueOf(k))) {
                    collect(
                        FieldPath.of(
                            List.of(
                                new FieldPath.Key("metadata"),
                                new FieldPath.Key(String.valueOf(k)))),
                        v,
                        paths);
                  }
                });
            return;
          }
          collect(FieldPath.of(List.of(new FieldPath.Key(key))), value, paths);
        });
    return paths;
  }

  private static void collect(FieldPath at, Object value, List<FieldPath> out) {
    if (value instanceof Map<?, ?> map) {
      // an empty map names no field of its own
      map.forEach((k, v) -> collect(at.key(String.valueOf(k)), v, out));
    } else if (value != null) {
      out.add(at);
    }
  }

  /**
   * For every path desired names: does live hold what the fresh create holds? Elements of set lists
   * (finalizers) in {@code foreignElements} were added by another actor and are allowed in live
   * besides desired's.
   *
   * @param desired the desired object's JSON tree
   * @param live the live object's JSON tree
   * @param fresh the JSON tree of a fresh create of desired ({@link #freshCreate})
   * @param foreignElements set-list elements another actor added
   * @return one line per path where live differs, empty when live holds desired
   */
  public static List<String> holdsDesired(
      Map<String, Object> desired,
      Map<String, Object> live,
      Map<String, Object> fresh,
      Collection<?> foreignElements) {
    return holdsDesired(desired, live, fresh, foreignElements, List.of());
  }

  /**
   * As {@link #holdsDesired(Map, Map, Map, Collection)}, leaving out {@code excused} paths: fields
   * another actor set that desired has since stopped naming, which belong to that actor now (inside
   * a list desired names, they are left out of both sides of the comparison).
   *
   * @param desired the desired object's JSON tree
   * @param live the live object's JSON tree
   * @param fresh the JSON tree of a fresh create of desired ({@link #freshCreate})
   * @param foreignElements set-list elements another actor added
   * @param excused paths another actor owns now
   * @return one line per path where live differs, empty when live holds desired
   */
  public static List<String> holdsDesired(
      Map<String, Object> desired,
      Map<String, Object> live,
      Map<String, Object> fresh,
      Collection<?> foreignElements,
      Collection<FieldPath> excused) {
    List<String> lost = new ArrayList<>();
    for (FieldPath path : desiredPaths(desired)) {
      if (excused.stream().anyMatch(e -> e.covers(path))) {
        continue;
      }
      Object want = path.get(fresh).orElse(null);
      Object have = path.get(live).orElse(null);
      for (FieldPath e : excused) {
        if (path.covers(e) && want != null && have != null) {
          FieldPath inside = FieldPath.of(e.steps().subList(path.steps().size(), e.steps().size()));
          Map<String, Object> w = new LinkedHashMap<>(Map.of("v", JsonValue.copy(want)));
          Map<String, Object> h = new LinkedHashMap<>(Map.of("v", JsonValue.copy(have)));
          List<FieldPath.Step> steps = new ArrayList<>(List.of(new FieldPath.Key("v")));
          steps.addAll(inside.steps());
          FieldPath.of(steps).remove(w);
          FieldPath.of(steps).remove(h);
          want = w.get("v");
          have = h.get("v");
        }
      }
      if (!sameAsFresh(path, want, have, foreignElements)) {
        String where = JsonValue.firstDifference(want, have, ALLOCATED);
        lost.add(
            path
                + (where.isEmpty() ? "" : " (first difference at " + path + where + ")")
                + ": desired "
                + JsonValue.text(path.get(desired).orElse(null), 120)
                + ", a fresh create holds "
                + JsonValue.text(want, 300)
                + ", live holds "
                + JsonValue.text(have, 300));
      }
    }
    return lost;
  }

  /**
   * For every path the previous desired named and the current one does not: live holds what a fresh
   * create of the current desired holds there (usually nothing, or the server's default). Paths at
   * or below {@code foreignPaths} (set by another actor) are skipped.
   *
   * @param previous the previous desired object's JSON tree
   * @param desired the current desired object's JSON tree
   * @param live the live object's JSON tree
   * @param fresh the JSON tree of a fresh create of the current desired
   * @param foreignPaths paths another actor set
   * @return one line per dropped path live still holds, empty when every one is gone
   */
  public static List<String> removedGone(
      Map<String, Object> previous,
      Map<String, Object> desired,
      Map<String, Object> live,
      Map<String, Object> fresh,
      Collection<FieldPath> foreignPaths) {
    List<FieldPath> now = desiredPaths(desired);
    List<String> left = new ArrayList<>();
    for (FieldPath path : desiredPaths(previous)) {
      if (now.stream().anyMatch(p -> p.covers(path) || path.covers(p))
          || foreignPaths.stream().anyMatch(f -> f.covers(path) || path.covers(f))) {
        continue;
      }
      Object want = path.get(fresh).orElse(null);
      Object have = path.get(live).orElse(null);
      if (!sameAsFresh(path, want, have, List.of())) {
        left.add(
            path
                + ": dropped from desired, a fresh create holds "
                + JsonValue.text(want, 120)
                + ", live holds "
                + JsonValue.text(have, 120));
      }
    }
    return left;
  }

  private static boolean sameAsFresh(
      FieldPath path, Object want, Object have, Collection<?> foreignElements) {
    FieldPath.Step last = path.steps().get(path.steps().size() - 1);
    if (last instanceof FieldPath.Key key
        && ALLOCATED.contains(key.name())
        && want != null
        && have != null
        && !"None".equals(want)
        && !"None".equals(have)) {
      return true;
    }
    if (SET_LISTS.contains(path.toString()) && have instanceof List<?> list) {
      List<Object> ours = new ArrayList<>(list);
      ours.removeIf(e -> foreignElements.stream().anyMatch(f -> JsonValue.equal(e, f)));
      List<?> wanted = want instanceof List<?> w ? w : List.of();
      return ours.size() == wanted.size() && ours.containsAll(wanted);
    }
    List<String> keys =
        path.steps().stream()
            .filter(s -> s instanceof FieldPath.Key)
            .map(s -> ((FieldPath.Key) s).name())
            .toList();
    return JsonValue.equal(want, have, ALLOCATED, keys);
  }

  /**
   * Names an object in messages.
   *
   * @param ref the object
   * @return {@code Kind namespace/name}
   */
  public static String describe(HasMetadata ref) {
    return ref.getKind()
        + " "
        + ref.getMetadata().getNamespace()
        + "/"
        + ref.getMetadata().getName();
  }

  /**
   * A mutable copy of {@code tree} with only the metadata a user calls content (labels,
   * annotations, finalizers).
   *
   * @param tree an object's JSON tree; not changed
   * @return the copy, without status
   */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> content(Map<String, Object> tree) {
    Map<String, Object> copy = JsonValue.copy(tree);
    copy.remove("status");
    Map<String, Object> metadata = (Map<String, Object>) copy.getOrDefault("metadata", Map.of());
    Map<String, Object> kept = new LinkedHashMap<>();
    for (String key : METADATA_COMPARED) {
      if (metadata.get(key) != null) {
        kept.put(key, metadata.get(key));
      }
    }
    copy.put("metadata", kept);
    return copy;
  }
}
