package dev.converge.schema;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/** A list position with its element type and how its elements are identified. */
public final class ListSchema implements SchemaNode {

  private final Supplier<SchemaNode> itemResolver;
  private final ListType type;
  private final List<String> keys;
  private volatile SchemaNode items;

  /**
   * A list schema whose element type is looked up only when a value needs it, so that recursive
   * schemas can be built.
   *
   * @param itemResolver the element type, resolved on first use
   * @param type atomic, set or map
   * @param keys for a map list, the key fields ({@code x-kubernetes-list-map-keys}); empty
   *     otherwise
   * @throws IllegalArgumentException if a map list has no key field
   */
  public ListSchema(Supplier<SchemaNode> itemResolver, ListType type, List<String> keys) {
    this.itemResolver = Objects.requireNonNull(itemResolver, "itemResolver");
    this.type = Objects.requireNonNull(type, "type");
    this.keys = List.copyOf(keys);
    if (type == ListType.MAP && this.keys.isEmpty()) {
      throw new IllegalArgumentException("a map list needs at least one key field");
    }
  }

  /**
   * A list of {@code items} of the given type, without key fields.
   *
   * @param items the element type
   * @param type {@link ListType#ATOMIC} or {@link ListType#SET}; a map list needs key fields
   * @return the list schema
   * @throws IllegalArgumentException if {@code type} is {@link ListType#MAP}
   */
  public static ListSchema of(SchemaNode items, ListType type) {
    return new ListSchema(() -> items, type, List.of());
  }

  /**
   * The element type.
   *
   * @return the element type, resolved on the first call and kept
   */
  public SchemaNode items() {
    SchemaNode node = items;
    if (node == null) {
      node = itemResolver.get();
      items = node;
    }
    return node;
  }

  /**
   * How elements are identified when the list is compared and merged.
   *
   * @return atomic, set or map
   */
  public ListType type() {
    return type;
  }

  /**
   * The key fields of a map list; empty for other lists.
   *
   * @return the key fields in the schema's order, unmodifiable
   */
  public List<String> keys() {
    return keys;
  }

  @Override
  public String toString() {
    return "ListSchema[" + type + (keys.isEmpty() ? "" : " " + keys) + "]";
  }
}
