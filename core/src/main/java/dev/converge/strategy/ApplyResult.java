package dev.converge.strategy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * The result of making one live object match one desired object.
 *
 * @param outcome what happened
 * @param live the object as the API server returned it after the write, or for {@code UNCHANGED}
 *     the context's cached object — shared with the cache, so treat it as read-only
 * @param request a short, human-readable description of the write request(s) sent, for logs and
 *     metrics; {@code "none"} when nothing was sent (for example {@code "PUT rv=123"}, {@code
 *     "PATCH application/merge-patch+json {\"spec\":{\"replicas\":3}}"})
 * @param <R> the resource type
 */
public record ApplyResult<R extends HasMetadata>(ApplyOutcome outcome, R live, String request) {

  /** The request description used when no write was sent. */
  public static final String NO_REQUEST = "none";

  public ApplyResult {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(live, "live");
    Objects.requireNonNull(request, "request");
  }

  /** A result for an object that already matched; no request was sent. */
  public static <R extends HasMetadata> ApplyResult<R> unchanged(R live) {
    return new ApplyResult<>(ApplyOutcome.UNCHANGED, live, NO_REQUEST);
  }

  /** True unless the outcome is {@link ApplyOutcome#UNCHANGED}. */
  public boolean changed() {
    return outcome != ApplyOutcome.UNCHANGED;
  }
}
