package dev.converge.testing.conformance.fuzz.internal;

import dev.converge.testing.conformance.FieldPath;
import dev.converge.testing.conformance.internal.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Draws random changes to a desired object from everything its tree offers: map keys added, removed
 * and changed (with number-like strings and {@code ""} among the values), scalars changed,
 * quantities respelled, list elements removed, swapped and added, lists set explicitly empty,
 * fields dropped, and the kind's curated union switches. Frozen (immutable) paths are never
 * touched; changes that make an object invalid are possible and are weeded out by the caller with a
 * dry-run create.
 */
public final class Mutator {

  /** Values that look like numbers but are strings, and the empty string. */
  static final List<String> TRICKY =
      List.of("1.10", "1.1", "010", "10", "", "1e3", "0x10", "true", "v2");

  private static final Set<String> QUANTITY_KEYS =
      Set.of("cpu", "memory", "sizeLimit", "averageValue", "storage");
  private static final Map<String, List<String>> RESPELL =
      Map.of(
          "cpu", List.of("100m", "0.1", "250m", "1", "1000m", "0.5", "500m", "2", "2000m"),
          "memory",
              List.of("64Mi", "67108864", "128Mi", "134217728", "0.5Gi", "512Mi", "1Gi", "1024Mi"),
          "quantity",
              List.of(
                  "256Mi",
                  "0.25Gi",
                  "200Mi",
                  "209715200",
                  "100",
                  "0.1k",
                  "500m",
                  "0.5",
                  "10",
                  "10000m"));
  private static final Set<String> FREE_FORM_KEYS =
      Set.of("labels", "annotations", "data", "selector", "matchLabels", "nodeSelector");
  private static final Set<String> FREE_TEXT_KEYS =
      Set.of("image", "value", "mountPath", "path", "externalName", "host", "timeout");

  private final CorpusKind kind;
  private final Random random;

  public Mutator(CorpusKind kind, Random random) {
    this.kind = kind;
    this.random = random;
  }

  /** {@code count} mutations valid for {@code tree} as it is now, each applied to it as drawn. */
  public List<Mutation> draw(Map<String, Object> tree, int count) {
    List<Mutation> drawn = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      List<Mutation> candidates = candidates(tree);
      if (candidates.isEmpty()) {
        break;
      }
      Mutation m =
          random.nextInt(4) == 0 && !kind.unions().isEmpty()
              ? kind.unions().get(random.nextInt(kind.unions().size()))
              : candidates.get(random.nextInt(candidates.size()));
      m.apply(tree);
      drawn.add(m);
    }
    return drawn;
  }

  private List<Mutation> candidates(Map<String, Object> tree) {
    List<Mutation> out = new ArrayList<>();
    walk(tree, FieldPath.of("metadata"), tree.get("metadata"), out, true);
    tree.forEach(
        (k, v) -> {
          if (!k.equals("metadata")
              && !k.equals("apiVersion")
              && !k.equals("kind")
              && !k.equals("status")) {
            walk(tree, FieldPath.of(List.of(new FieldPath.Key(k))), v, out, false);
          }
        });
    return out;
  }

  private void walk(
      Map<String, Object> root, FieldPath at, Object node, List<Mutation> out, boolean metadata) {
    if (kind.isFrozen(at)) {
      return;
    }
    String key = lastKey(at);
    if (node instanceof Map<?, ?> map) {
      if (metadata && at.steps().size() == 1) {
        for (String k : List.of("labels", "annotations")) {
          Object child = map.get(k);
          FieldPath path = at.key(k);
          if (child instanceof Map<?, ?>) {
            walk(root, path, child, out, true);
          } else {
            out.add(put(path.key("example.com/k" + random.nextInt(100)), pick(TRICKY)));
          }
        }
        return;
      }
      boolean strings = !map.isEmpty() && map.values().stream().allMatch(v -> v instanceof String);
      if (strings && freeForm(at)) {
        String newKey =
            (at.toString().startsWith("metadata.") ? "example.com/" : "")
                + "k"
                + random.nextInt(100);
        out.add(put(at.key(newKey), pick(TRICKY)));
        for (Object k : map.keySet()) {
          FieldPath child = at.key(String.valueOf(k));
          if (!kind.isFrozen(child)) {
            out.add(remove(child));
            if (!key.equals("data") || !kind.label().equals("Secret")) {
              out.add(put(child, pick(TRICKY)));
            }
          }
        }
        return;
      }
      boolean listElement =
          !at.steps().isEmpty() && at.steps().get(at.steps().size() - 1) instanceof FieldPath.Index;
      map.forEach(
          (k, v) -> {
            FieldPath child = at.key(String.valueOf(k));
            // a list element keeps its name: it is the key that identifies it (no user writes an
            // element without it, and the server could not tell which element it is)
            boolean elementName = listElement && "name".equals(k);
            if (!kind.isFrozen(child) && !elementName && random.nextInt(3) == 0) {
              out.add(remove(child));
            }
            walk(root, child, v, out, metadata);
          });
    } else if (node instanceof List<?> list) {
      if (!list.isEmpty()) {
        // an explicitly empty list (a map list, a set, an atomic list): written, then no write
        out.add(
            new Mutation(
                "set " + at + " = []",
                t -> {
                  if (at.get(t).isPresent()) {
                    at.set(t, new ArrayList<>());
                  }
                }));
      }
      if (list.size() > 1) {
        int i = random.nextInt(list.size());
        out.add(
            new Mutation(
                "remove " + at + "[" + i + "]",
                t ->
                    at.get(t)
                        .filter(l -> l instanceof List<?> ll && ll.size() > i)
                        .ifPresent(l -> ((List<?>) l).remove(i))));
        out.add(
            new Mutation(
                "swap " + at + "[0] and [1]",
                t ->
                    at.get(t)
                        .filter(l -> l instanceof List<?> ll && ll.size() > 1)
                        .ifPresent(l -> java.util.Collections.swap((List<?>) l, 0, 1))));
      }
      if (!list.isEmpty() && list.get(0) instanceof String s) {
        String added = s.isEmpty() ? "extra" : s + "x";
        out.add(
            new Mutation(
                "append \"" + added + "\" to " + at,
                t -> at.get(t).filter(l -> l instanceof List<?>).ifPresent(l -> addTo(l, added))));
      }
      for (int i = 0; i < list.size(); i++) {
        walk(root, FieldPath.of(concat(at, new FieldPath.Index(i))), list.get(i), out, metadata);
      }
    } else if (node instanceof String s) {
      if (QUANTITY_KEYS.contains(key) || at.toString().contains("resources.")) {
        List<String> spellings = RESPELL.getOrDefault(key, RESPELL.get("quantity"));
        out.add(put(at, spellings.get(random.nextInt(spellings.size()))));
      } else if (key.equals("value") && at.toString().contains(".env[")) {
        out.add(put(at, pick(TRICKY)));
      } else if (key.equals("value")) {
        List<String> spellings = RESPELL.get("quantity");
        out.add(put(at, spellings.get(random.nextInt(spellings.size()))));
      } else if (FREE_TEXT_KEYS.contains(key)) {
        out.add(put(at, variant(key, s)));
      }
    } else if (node instanceof Number n) {
      out.add(put(at, Math.max(0, n.longValue() + (random.nextBoolean() ? 1 : -1))));
    } else if (node instanceof Boolean b) {
      out.add(put(at, !b));
    }
  }

  /**
   * Maps whose keys are the user's to choose (labels, data, selectors, ...); a key added to any
   * other object would be a field the schema does not declare.
   */
  private static boolean freeForm(FieldPath at) {
    String key = lastKey(at);
    if (FREE_FORM_KEYS.contains(key)) {
      return true;
    }
    // the custom resource's own maps: spec.settings (granular) and spec.limits (atomic)
    return at.steps().size() == 2
        && at.steps().get(0).equals(new FieldPath.Key("spec"))
        && (key.equals("settings") || key.equals("limits"));
  }

  private static String variant(String key, String s) {
    return switch (key) {
      case "image" -> s.replaceAll(":[^:/]*$", "") + ":2.0.0";
      case "mountPath", "path" -> s + (s.endsWith("/") ? "v2" : "/v2");
      case "host", "externalName" -> "v2." + s;
      default -> s + "2";
    };
  }

  @SuppressWarnings("unchecked")
  private static void addTo(Object list, String value) {
    ((List<Object>) list).add(value);
  }

  private static List<FieldPath.Step> concat(FieldPath at, FieldPath.Step step) {
    List<FieldPath.Step> steps = new ArrayList<>(at.steps());
    steps.add(step);
    return steps;
  }

  private static Mutation put(FieldPath path, Object value) {
    return new Mutation(
        "set " + path + " = " + JsonValue.text(value, 60),
        t -> {
          if (path.parent().flatMap(p -> p.get(t)).isPresent() || path.steps().size() == 1) {
            path.set(t, value);
          } else if (path.parent().isPresent()
              && path.steps().get(path.steps().size() - 1) instanceof FieldPath.Key
              && path.steps().stream().allMatch(s -> s instanceof FieldPath.Key)) {
            path.set(t, value);
          }
        });
  }

  private static Mutation remove(FieldPath path) {
    return new Mutation("drop " + path, path::remove);
  }

  private String pick(List<String> values) {
    return values.get(random.nextInt(values.size()));
  }

  private static String lastKey(FieldPath at) {
    for (int i = at.steps().size() - 1; i >= 0; i--) {
      if (at.steps().get(i) instanceof FieldPath.Key k) {
        return k.name();
      }
    }
    return "";
  }
}
