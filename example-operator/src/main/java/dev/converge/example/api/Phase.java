package dev.converge.example.api;

/** The one-word summary in {@code status.phase}; the conditions carry the details. */
public enum Phase {
  /** Pods are being created or rolled, or the referenced ConfigMap is missing. */
  Pending,
  /** As many pods of the current template are ready as the spec asks for. */
  Running,
  /** The spec cannot be realised as written (e.g. an image reference that does not parse). */
  Failed
}
