package dev.converge.strategy;

/** What an {@link ResourceStrategy#apply} call did to the live object. */
public enum ApplyOutcome {
  /** The object did not exist and was created. */
  CREATED,
  /** The object existed and at least one write changed it (or was needed to converge it). */
  UPDATED,
  /** Live already matched desired; no write request was sent. */
  UNCHANGED
}
