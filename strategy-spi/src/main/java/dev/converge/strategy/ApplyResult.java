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

  /**
   * Checks that every component is present: a result always carries the live object, so that the
   * caller can read what the server assigned (a Service's clusterIP, a new resourceVersion).
   *
   * @param outcome what happened
   * @param live the object after the write, or the cached one when nothing was sent
   * @param request a short description of the request(s) sent, or {@value #NO_REQUEST}
   * @throws NullPointerException if a component is null
   */
  public ApplyResult {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(live, "live");
    Objects.requireNonNull(request, "request");
  }

  /**
   * A result for an object that already matched; no request was sent.
   *
   * @param <R> the resource type
   * @param live the object that already matched, as the strategy read it
   * @return an {@link ApplyOutcome#UNCHANGED} result with request {@value #NO_REQUEST}
   */
  public static <R extends HasMetadata> ApplyResult<R> unchanged(R live) {
    return new ApplyResult<>(ApplyOutcome.UNCHANGED, live, NO_REQUEST);
  }

  /**
   * True unless the outcome is {@link ApplyOutcome#UNCHANGED}.
   *
   * @return whether a write was sent
   */
  public boolean changed() {
    return outcome != ApplyOutcome.UNCHANGED;
  }
}
