package dev.converge.schema;

/**
 * A position the schema does not describe ({@code x-kubernetes-preserve-unknown-fields}, raw
 * extensions, or a kind the server publishes no schema for). Its shape comes from the value, as the
 * server's merge logic deduces it: maps merge key by key, lists are atomic, scalars compare
 * exactly.
 */
public enum UntypedSchema implements SchemaNode {
  /** The single untyped schema. */
  INSTANCE
}
