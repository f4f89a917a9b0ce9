package dev.converge.schema;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A set of field paths in the form the API server records in {@code managedFields[].fieldsV1}:
 * {@code f:<field>} for a map field, {@code k:<json>} for a map-list element by its keys, {@code
 * v:<json>} for a set element, {@code i:<n>} for a list position; a node marked as a member ({@code
 * "."}) stands for the whole value at that path, and a node without children is a leaf.
 *
 * <p>A node may also be marked as owning all its children ({@code "*"}, never written by the
 * server): a record too large to list every key says "every key of this map was mine" instead.
 */
public final class FieldSet {

  private static final FieldSet EMPTY = new FieldSet(false, false, Map.of());

  private final boolean member;
  private final boolean ownsAll;
  private final Map<String, FieldSet> children;
  private int hash;

  private FieldSet(boolean member, boolean ownsAll, Map<String, FieldSet> children) {
    this.member = member;
    this.ownsAll = ownsAll;
    this.children = children;
  }

  /**
   * The empty set.
   *
   * @return the one empty set, shared
   */
  public static FieldSet empty() {
    return EMPTY;
  }

  private static final FieldSet EVERYTHING = new FieldSet(true, true, Map.of());

  /**
   * A node that holds itself and every child, listed or not: whatever it is intersected with or
   * subtracted from is held whole.
   *
   * @return the one such node, shared
   */
  public static FieldSet everything() {
    return EVERYTHING;
  }

  /**
   * The path element of a map field.
   *
   * @param name the field's name (or the map's key)
   * @return {@code f:<name>}
   */
  public static String field(String name) {
    return "f:" + name;
  }

  /**
   * The path element of a map-list element with these key values.
   *
   * @param keys the element's values of the list's key fields
   * @return {@code k:<json>}, the JSON with sorted fields, so that equal keys give equal elements
   */
  public static String key(Map<String, Object> keys) {
    return "k:" + CanonicalJson.of(keys);
  }

  /**
   * The path element of a set element.
   *
   * @param value the element (a scalar, for the sets the API defines)
   * @return {@code v:<json>}, the JSON with sorted fields
   */
  public static String value(Object value) {
    return "v:" + CanonicalJson.of(value);
  }

  /**
   * Every path of {@code tree} as {@code schema} addresses it, each node a member: what a writer of
   * this tree sets. {@code apiVersion}, {@code kind}, {@code metadata.name}, {@code
   * metadata.namespace}, {@code metadata.generateName} and {@code status} identify or belong to the
   * server and are left out, as are null values. An atomic map or list is one leaf.
   *
   * @param schema the schema of the tree's kind, from {@link ResourceSchemas}
   * @param tree a whole object as a tree ({@link ResourceTree})
   * @return the paths it sets, as the server would record them for an apply of it
   */
  public static FieldSet of(SchemaNode schema, Map<String, Object> tree) {
    Builder root = new Builder();
    tree.forEach(
        (key, value) -> {
          if (value == null
              || key.equals("apiVersion")
              || key.equals("kind")
              || key.equals("status")) {
            return;
          }
          SchemaNode child =
              schema instanceof MapSchema map ? map.child(key) : UntypedSchema.INSTANCE;
          if (key.equals("metadata") && value instanceof Map<?, ?> meta) {
            Builder metadata = new Builder();
            meta.forEach(
                (k, v) -> {
                  if (v != null
                      && !k.equals("name")
                      && !k.equals("namespace")
                      && !k.equals("generateName")) {
                    SchemaNode field =
                        child instanceof MapSchema m ? m.child((String) k) : UntypedSchema.INSTANCE;
                    metadata.put(field((String) k), collect(field, v));
                  }
                });
            if (!metadata.children.isEmpty()) {
              root.put(field(key), metadata);
            }
            return;
          }
          root.put(field(key), collect(child, value));
        });
    return root.build();
  }

  /**
   * The paths of {@link #of} where {@code tree} holds an explicitly empty list. The server records
   * no field for a map list or a set an apply sets empty (it records list elements, and there are
   * none), so an applier that compares what it owns with what it sets must count these as its own.
   * Empty when there are none, without allocating.
   *
   * @param schema the schema of the tree's kind, from {@link ResourceSchemas}
   * @param tree a whole object as a tree ({@link ResourceTree}); its metadata is not looked at
   * @return the paths of its empty lists, each a member leaf; {@link #empty()} when there are none
   */
  public static FieldSet emptyLists(SchemaNode schema, Map<String, Object> tree) {
    Builder root = null;
    for (Map.Entry<String, Object> e : tree.entrySet()) {
      String key = e.getKey();
      if (e.getValue() == null
          || key.equals("apiVersion")
          || key.equals("kind")
          || key.equals("status")
          || key.equals("metadata")) {
        continue;
      }
      SchemaNode child = schema instanceof MapSchema map ? map.child(key) : UntypedSchema.INSTANCE;
      Builder found = emptyListsBelow(child, e.getValue());
      if (found != null) {
        if (root == null) {
          root = new Builder();
        }
        root.put(field(key), found);
      }
    }
    return root == null ? EMPTY : root.build();
  }

  /** The empty lists at or below {@code value}, as a node; null when there are none. */
  private static Builder emptyListsBelow(SchemaNode schema, Object value) {
    if (value instanceof List<?> list) {
      if (list.isEmpty()) {
        return new Builder(true);
      }
      if (!(schema instanceof ListSchema ls) || ls.type() != ListType.MAP) {
        return null;
      }
      Builder node = null;
      for (Object element : list) {
        if (element instanceof Map<?, ?> e) {
          Optional<Map<String, Object>> keys = ListKeys.of(ls, e);
          Builder found = keys.isEmpty() ? null : emptyListsBelow(ls.items(), e);
          if (found != null) {
            if (node == null) {
              node = new Builder();
            }
            node.put(key(keys.get()), found);
          }
        }
      }
      return node;
    }
    if (value instanceof Map<?, ?> map
        && !(schema instanceof MapSchema m && m.atomic())
        && !(schema instanceof ScalarSchema)) {
      Builder node = null;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (e.getValue() instanceof Map<?, ?> || e.getValue() instanceof List<?>) {
          SchemaNode child =
              schema instanceof MapSchema m ? m.child((String) e.getKey()) : UntypedSchema.INSTANCE;
          Builder found = emptyListsBelow(child, e.getValue());
          if (found != null) {
            if (node == null) {
              node = new Builder();
            }
            node.put(field((String) e.getKey()), found);
          }
        }
      }
      return node;
    }
    return null;
  }

  private static Builder collect(SchemaNode schema, Object value) {
    Builder node = new Builder();
    node.member = true;
    if (value instanceof Map<?, ?> map
        && !(schema instanceof MapSchema m && m.atomic())
        && !(schema instanceof ScalarSchema)) {
      map.forEach(
          (k, v) -> {
            if (v != null) {
              SchemaNode child =
                  schema instanceof MapSchema m ? m.child((String) k) : UntypedSchema.INSTANCE;
              node.put(field((String) k), collect(child, v));
            }
          });
    } else if (value instanceof List<?> list
        && schema instanceof ListSchema ls
        && ls.type() != ListType.ATOMIC) {
      for (Object element : list) {
        if (element == null) {
          continue;
        }
        if (ls.type() == ListType.SET) {
          node.put(value(element), new Builder(true));
        } else if (element instanceof Map<?, ?> e) {
          Optional<Map<String, Object>> keys = ListKeys.of(ls, e);
          if (keys.isPresent()) {
            node.put(key(keys.get()), collect(ls.items(), e));
          }
        }
      }
    }
    return node;
  }

  /**
   * Reads a managed-fields tree, the server's "fieldsV1" form (or a record written by {@link
   * #toFieldsV1}). Key and value elements are rewritten with sorted JSON fields, so that a set read
   * from the server equals one {@link #of} built.
   *
   * @param fields the "fieldsV1" map of one managedFields entry; null reads as empty
   * @return the set it records
   */
  public static FieldSet fromFieldsV1(Map<?, ?> fields) {
    if (fields == null || fields.isEmpty()) {
      return EMPTY;
    }
    Builder node = new Builder();
    fields.forEach(
        (k, v) -> {
          String key = String.valueOf(k);
          if (key.equals(".")) {
            node.member = true;
          } else if (key.equals("*")) {
            node.ownsAll = true;
          } else {
            FieldSet child = v instanceof Map<?, ?> m ? fromFieldsV1(m) : EMPTY;
            Builder b = Builder.from(child);
            if (child.children.isEmpty()) {
              b.member = true;
            }
            node.put(canonical(key), b);
          }
        });
    return node.build();
  }

  private static final Map<String, String> CANONICAL =
      java.util.Collections.synchronizedMap(
          new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
              return size() > 8192;
            }
          });

  /** Path elements written by the server carry key JSON in its field order; ours sort it. */
  private static String canonical(String element) {
    if (element.startsWith("k:") || element.startsWith("v:")) {
      String known = CANONICAL.get(element);
      if (known != null) {
        return known;
      }
      String canonical;
      try {
        canonical =
            element.substring(0, 2) + CanonicalJson.of(CanonicalJson.parse(element.substring(2)));
      } catch (RuntimeException e) {
        canonical = element;
      }
      CANONICAL.put(element, canonical);
      return canonical;
    }
    return element;
  }

  /**
   * The {@code fieldsV1} form: {@code "."} marks a member with children, {@code {}} a leaf, and
   * {@code "*"} a node that owns all its children.
   *
   * @return a new map, which {@link #fromFieldsV1} reads back into an equal set
   */
  public Map<String, Object> toFieldsV1() {
    Map<String, Object> out = new LinkedHashMap<>();
    if (member && !children.isEmpty()) {
      out.put(".", Map.of());
    }
    if (ownsAll) {
      out.put("*", Map.of());
    }
    children.forEach((k, v) -> out.put(k, v.toFieldsV1()));
    return out;
  }

  /**
   * Whether the value at this path itself belongs to the set (not only values below it).
   *
   * @return true for a member node
   */
  public boolean member() {
    return member;
  }

  /**
   * Whether every child of this path belongs to the set, listed or not.
   *
   * @return true for a node {@link #coarsened} collapsed, or one read from a {@code "*"} mark
   */
  public boolean ownsAllChildren() {
    return ownsAll;
  }

  /**
   * The subtree at one path element.
   *
   * @param element a path element, such as {@link #field}{@code ("spec")}
   * @return the node below this one at {@code element}; empty when the set holds nothing there
   */
  public Optional<FieldSet> child(String element) {
    return Optional.ofNullable(children.get(element));
  }

  /**
   * The path elements directly below this node.
   *
   * @return an unmodifiable view, in the order the elements were added
   */
  public Set<String> elements() {
    return Collections.unmodifiableSet(children.keySet());
  }

  /**
   * Whether the set holds no path at all.
   *
   * @return true when this node is no member, owns no children and has none
   */
  public boolean isEmpty() {
    return !member && !ownsAll && children.isEmpty();
  }

  /**
   * Number of nodes in the set, this one not counted: what {@link #coarsened} bounds.
   *
   * @return the number of path elements at every depth
   */
  public int size() {
    int n = 0;
    for (FieldSet child : children.values()) {
      n += 1 + child.size();
    }
    return n;
  }

  /**
   * Equal sets interned while one of them is in use, node by node: equal subtrees of different sets
   * are one object too.
   */
  private static final Map<FieldSet, java.lang.ref.WeakReference<FieldSet>> INTERNED =
      Collections.synchronizedMap(new java.util.WeakHashMap<>());

  /**
   * An equal set shared with every other interned set equal to it, built of shared subtrees. Sets
   * an operator keeps per object (the fields it owns of each object it wrote) are mostly alike,
   * since one builder made every such object: interned, thousands of them cost about what one does.
   * Interned sets are held weakly, so a set no one uses any longer is collected.
   *
   * @return the shared set equal to this one
   */
  public FieldSet interned() {
    FieldSet known = internedOrNull(this);
    if (known != null) {
      return known;
    }
    FieldSet canonical = this;
    if (!children.isEmpty()) {
      Map<String, FieldSet> shared = new LinkedHashMap<>();
      children.forEach((k, v) -> shared.put(k, v.interned()));
      canonical = new FieldSet(member, ownsAll, Collections.unmodifiableMap(shared));
    }
    synchronized (INTERNED) {
      FieldSet raced = internedOrNull(canonical);
      if (raced != null) {
        return raced;
      }
      INTERNED.put(canonical, new java.lang.ref.WeakReference<>(canonical));
      return canonical;
    }
  }

  private static FieldSet internedOrNull(FieldSet set) {
    java.lang.ref.WeakReference<FieldSet> ref = INTERNED.get(set);
    return ref == null ? null : ref.get();
  }

  /**
   * The union of two sets.
   *
   * @param other the set to add
   * @return the paths either set holds; this set or {@code other} itself when the other is empty
   */
  public FieldSet union(FieldSet other) {
    if (other.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return other;
    }
    Map<String, FieldSet> merged = new LinkedHashMap<>(children);
    other.children.forEach((k, v) -> merged.merge(k, v, FieldSet::union));
    return new FieldSet(
        member || other.member, ownsAll || other.ownsAll, Collections.unmodifiableMap(merged));
  }

  /**
   * The paths of this set that {@code other} also holds. A node {@code other} owns whole (a member
   * leaf, or "owns all children") holds everything of this set below it.
   *
   * @param other the set to intersect with
   * @return the paths both sets hold
   */
  public FieldSet intersect(FieldSet other) {
    if (other.isEmpty() || isEmpty()) {
      return EMPTY;
    }
    if (other.ownsAll || (other.member && other.children.isEmpty())) {
      return this;
    }
    Map<String, FieldSet> common = new LinkedHashMap<>();
    children.forEach(
        (k, v) -> {
          FieldSet theirs = other.children.get(k);
          if (theirs != null) {
            FieldSet both = v.intersect(theirs);
            if (!both.isEmpty()) {
              common.put(k, both);
            }
          }
        });
    boolean both = member && other.member;
    if (!both && !ownsAll && common.isEmpty()) {
      return EMPTY;
    }
    return new FieldSet(both, ownsAll && other.ownsAll, Collections.unmodifiableMap(common));
  }

  /**
   * The paths of this set that {@code other} names itself: unlike {@link #intersect}, a member leaf
   * of {@code other} (an empty map desired sets, say) does not take in what this set holds below
   * it; only "owns all children" (a bounded record's widest maps) does.
   *
   * @param other the set whose named paths are kept
   * @return the paths of this set that {@code other} names or owns all children of
   */
  public FieldSet intersectExact(FieldSet other) {
    if (other.isEmpty() || isEmpty()) {
      return EMPTY;
    }
    if (other.ownsAll) {
      return this;
    }
    Map<String, FieldSet> common = new LinkedHashMap<>();
    children.forEach(
        (k, v) -> {
          FieldSet theirs = other.children.get(k);
          if (theirs != null) {
            FieldSet both = v.intersectExact(theirs);
            if (!both.isEmpty()) {
              common.put(k, both);
            }
          }
        });
    boolean both = member && !other.isEmpty();
    if (!both && common.isEmpty()) {
      return EMPTY;
    }
    return new FieldSet(both, false, Collections.unmodifiableMap(common));
  }

  /**
   * The paths of this set that {@code other} does not hold (see {@link #intersect}).
   *
   * @param other the set to subtract
   * @return what remains; empty when {@code other} owns this node whole
   */
  public FieldSet minus(FieldSet other) {
    if (other.isEmpty() || isEmpty()) {
      return this;
    }
    if (other.ownsAll || (other.member && other.children.isEmpty())) {
      return EMPTY;
    }
    Map<String, FieldSet> rest = new LinkedHashMap<>();
    children.forEach(
        (k, v) -> {
          FieldSet theirs = other.children.get(k);
          FieldSet left = theirs == null ? v : v.minus(theirs);
          if (!left.isEmpty()) {
            rest.put(k, left);
          }
        });
    boolean keep = member && !other.member;
    if (!keep && !ownsAll && rest.isEmpty()) {
      return EMPTY;
    }
    return new FieldSet(keep, ownsAll && !other.ownsAll, Collections.unmodifiableMap(rest));
  }

  /**
   * Whether both sets have the same leaf paths (see {@link #leaves}), without listing them.
   * Membership of inner nodes and "owns all children" marks are not compared.
   *
   * @param other the set to compare with
   * @return true when {@code leaves().equals(other.leaves())} would be
   */
  public boolean sameLeaves(FieldSet other) {
    if (children.isEmpty() || other.children.isEmpty()) {
      return children.isEmpty() && other.children.isEmpty();
    }
    if (!children.keySet().equals(other.children.keySet())) {
      return false;
    }
    for (Map.Entry<String, FieldSet> e : children.entrySet()) {
      if (!e.getValue().sameLeaves(other.children.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The leaf paths (paths without children below them), each a list of path elements.
   *
   * @return a new set of unmodifiable lists, in the order of the nodes
   */
  public Set<List<String>> leaves() {
    Set<List<String>> out = new LinkedHashSet<>();
    collectLeaves(new ArrayList<>(), out);
    return out;
  }

  private void collectLeaves(List<String> prefix, Set<List<String>> out) {
    if (children.isEmpty()) {
      if (!prefix.isEmpty()) {
        out.add(List.copyOf(prefix));
      }
      return;
    }
    children.forEach(
        (k, v) -> {
          prefix.add(k);
          v.collectLeaves(prefix, out);
          prefix.remove(prefix.size() - 1);
        });
  }

  /**
   * A copy where the node with the most children, then the next, is replaced by "owns all its
   * children" until at most {@code maxNodes} nodes remain: a bounded record of a huge object. The
   * copy holds at least every path this set holds, so a writer that keeps it never forgets a field
   * it set; it may claim more.
   *
   * @param maxNodes the most nodes the copy may have (see {@link #size})
   * @return this set when it is small enough, else the coarsened copy; it may still exceed {@code
   *     maxNodes} when no node is left to collapse
   */
  public FieldSet coarsened(int maxNodes) {
    FieldSet current = this;
    while (current.size() > maxNodes) {
      List<String> widest = current.widest(new ArrayList<>(), new ArrayList<>(), new int[] {-1});
      if (widest.isEmpty()) {
        return current;
      }
      current = current.collapse(widest, 0);
    }
    return current;
  }

  private List<String> widest(List<String> prefix, List<String> best, int[] bestSize) {
    if (!children.isEmpty() && !prefix.isEmpty() && children.size() > bestSize[0]) {
      bestSize[0] = children.size();
      best.clear();
      best.addAll(prefix);
    }
    children.forEach(
        (k, v) -> {
          prefix.add(k);
          v.widest(prefix, best, bestSize);
          prefix.remove(prefix.size() - 1);
        });
    return best;
  }

  private FieldSet collapse(List<String> path, int depth) {
    if (depth == path.size()) {
      return new FieldSet(true, true, Map.of());
    }
    Map<String, FieldSet> copy = new LinkedHashMap<>(children);
    copy.computeIfPresent(path.get(depth), (k, v) -> v.collapse(path, depth + 1));
    return new FieldSet(member, ownsAll, Collections.unmodifiableMap(copy));
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true; // interned sets share subtrees: most comparisons end here
    }
    return o instanceof FieldSet f
        && member == f.member
        && ownsAll == f.ownsAll
        && children.equals(f.children);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = children.hashCode() * 31 + (member ? 1 : 0) + (ownsAll ? 2 : 0);
      hash = h;
    }
    return h;
  }

  @Override
  public String toString() {
    return CanonicalJson.of(toFieldsV1());
  }

  private static final class Builder {
    boolean member;
    boolean ownsAll;
    final Map<String, Builder> children = new LinkedHashMap<>();

    Builder() {}

    Builder(boolean member) {
      this.member = member;
    }

    static Builder from(FieldSet set) {
      Builder b = new Builder(set.member);
      b.ownsAll = set.ownsAll;
      set.children.forEach((k, v) -> b.children.put(k, from(v)));
      return b;
    }

    void put(String element, Builder child) {
      children.merge(
          element,
          child,
          (a, b) -> {
            a.member |= b.member;
            a.ownsAll |= b.ownsAll;
            b.children.forEach(a::put);
            return a;
          });
    }

    FieldSet build() {
      if (!member && !ownsAll && children.isEmpty()) {
        return EMPTY;
      }
      Map<String, FieldSet> built = new LinkedHashMap<>();
      children.forEach((k, v) -> built.put(k, v.build()));
      return new FieldSet(member, ownsAll, Collections.unmodifiableMap(built));
    }
  }
}
