package dev.converge.schema;

/** How the elements of a list are identified when it is merged ({@code x-kubernetes-list-type}). */
public enum ListType {
  /** The list is one value, replaced whole. */
  ATOMIC,
  /** Scalar elements identified by value; each element may have its own owner. */
  SET,
  /** Map elements identified by their key fields ({@code x-kubernetes-list-map-keys}). */
  MAP
}
