package dev.converge.strategy.update.internal;

import dev.converge.strategy.tree.ResourceTree;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Lays a desired tree over a live tree: maps merge key by key (live keys desired does not mention
 * stay), scalars and lists come from desired. Map elements of a desired list are laid over their
 * live counterpart — matched by {@code name}, else by an identity field such as {@code port} or
 * {@code mountPath}, else by position when both lists have the same length — so that defaults the
 * server filled into list elements (a container's {@code terminationMessagePath}, a port's {@code
 * protocol}) survive the write.
 */
public final class Overlay {

  private static final List<String> IDENTITY_FIELDS =
      List.of("name", "uid", "port", "containerPort", "mountPath", "devicePath", "key", "ip", "topologyKey");

  private Overlay() {}

  /** A new tree: {@code live} with {@code desired} laid over it. Neither input is changed. */
  @SuppressWarnings("unchecked")
  public static Object apply(Object live, Object desired) {
    if (desired instanceof Map<?, ?> want) {
      Map<String, Object> out = live instanceof Map<?, ?> have
          ? ResourceTree.copyMap((Map<String, Object>) have)
          : new LinkedHashMap<>();
      want.forEach((k, v) -> {
        if (v != null) {
          out.put((String) k, apply(out.get(k), v));
        }
      });
      return out;
    }
    if (desired instanceof List<?> want) {
      List<?> have = live instanceof List<?> l ? l : List.of();
      List<Object> out = new ArrayList<>(want.size());
      for (int i = 0; i < want.size(); i++) {
        Object element = want.get(i);
        Object counterpart = element instanceof Map<?, ?> m ? counterpart(have, m, i, want.size()) : null;
        out.add(counterpart == null ? ResourceTree.copy(element) : apply(counterpart, element));
      }
      return out;
    }
    return ResourceTree.copy(desired);
  }

  private static Object counterpart(List<?> live, Map<?, ?> element, int index, int desiredSize) {
    for (String field : IDENTITY_FIELDS) {
      Object id = element.get(field);
      if (id == null) {
        continue;
      }
      for (Object candidate : live) {
        if (candidate instanceof Map<?, ?> c && Objects.equals(String.valueOf(c.get(field)), String.valueOf(id))
            && sameProtocol(c, element)) {
          return candidate;
        }
      }
      return null;
    }
    if (live.size() == desiredSize && live.get(index) instanceof Map<?, ?>) {
      return live.get(index);
    }
    return null;
  }

  private static boolean sameProtocol(Map<?, ?> live, Map<?, ?> desired) {
    Object want = desired.get("protocol");
    Object have = live.get("protocol");
    return want == null || Objects.equals(want, have == null ? "TCP" : have);
  }
}
