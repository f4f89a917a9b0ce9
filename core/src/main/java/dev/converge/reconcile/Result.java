package dev.converge.reconcile;

import java.time.Duration;
import java.util.Objects;

/**
 * What a reconcile asks the runtime to do next. Together with a thrown exception (transient
 * failure: retry with per-key exponential backoff) this covers the four cases of the reconcile
 * decision table:
 *
 * <table>
 *   <caption>Reconcile outcomes</caption>
 *   <tr><th>situation</th><th>return</th><th>the runtime</th></tr>
 *   <tr><td>desired state reached</td><td>{@link #done()}</td>
 *       <td>waits for the next relevant event</td></tr>
 *   <tr><td>waiting for something asynchronous</td><td>{@link #requeueAfter(Duration)}</td>
 *       <td>reconciles again after the delay; the backoff is reset</td></tr>
 *   <tr><td>made progress, wants another pass</td><td>{@link #requeue()}</td>
 *       <td>reconciles again after the key's backoff delay</td></tr>
 *   <tr><td>transient failure (conflict, network, 5xx)</td><td>throw</td>
 *       <td>retries with per-key exponential backoff</td></tr>
 *   <tr><td>a write the API server refused as such (422, admission, quota; see {@link
 *       Refusal})</td><td>throw (or let it escape)</td>
 *       <td>no retry until the primary or something it watches changes; a Warning event and
 *       the {@value Refusal#CONDITION_TYPE}=False condition</td></tr>
 *   <tr><td>permanent failure (invalid spec)</td>
 *       <td>{@link #permanentFailure(String, String)}</td>
 *       <td>no retry until the primary or something it watches changes; a Warning event and
 *       the {@value Refusal#CONDITION_TYPE}=False condition</td></tr>
 * </table>
 */
public sealed interface Result {

  /**
   * The desired state is reached; nothing to do until something changes.
   *
   * @return the one {@link Done}
   */
  static Result done() {
    return Done.INSTANCE;
  }

  /**
   * Reconcile again soon, after this key's backoff delay: for a reconcile that made progress and
   * wants another pass. It is reported as {@code requeue}, not as an error, but it does advance the
   * key's backoff and so {@link Context#retries()}. Prefer {@link #requeueAfter(Duration)} with a
   * real delay; a tight requeue loop costs API calls.
   *
   * @return the one {@link Requeue}
   */
  static Result requeue() {
    return Requeue.INSTANCE;
  }

  /**
   * Reconcile again after {@code delay} even if nothing changes, e.g. while pods start. Resets the
   * failure backoff of this key.
   *
   * @param delay how long to wait; positive
   * @return a {@link RequeueAfter} of {@code delay}
   * @throws IllegalArgumentException when {@code delay} is zero or negative
   */
  static Result requeueAfter(Duration delay) {
    return new RequeueAfter(delay);
  }

  /**
   * The primary cannot be reconciled as it stands (an invalid spec). Not retried until the
   * primary's generation changes or its deletion starts, whatever else changes: for a reference to
   * something that does not exist yet, return {@link #requeueAfter(Duration)} instead and let a
   * watch of that kind bring the reconcile back when it appears. The runtime records a Warning
   * event with {@code reason} and {@code message} on the primary and sets the condition {@value
   * Refusal#CONDITION_TYPE} to False with the same reason and message and the primary's generation
   * (for a primary whose status can hold conditions), which the next reconcile that ends without
   * failure removes. The runtime's own write of that condition does not reconcile the primary
   * again; any other change of it, or of an object mapped to it, does.
   *
   * @param reason a short UpperCamelCase word for machines, e.g. {@code InvalidSpec}
   * @param message a sentence for humans naming the field and the fix
   * @return a {@link PermanentFailure} of {@code reason} and {@code message}
   * @throws IllegalArgumentException when {@code reason} is blank
   */
  static Result permanentFailure(String reason, String message) {
    return new PermanentFailure(reason, message);
  }

  /** See {@link Result#done()}. */
  final class Done implements Result {
    static final Done INSTANCE = new Done();

    private Done() {}

    @Override
    public String toString() {
      return "Done";
    }
  }

  /** See {@link Result#requeue()}. */
  final class Requeue implements Result {
    static final Requeue INSTANCE = new Requeue();

    private Requeue() {}

    @Override
    public String toString() {
      return "Requeue";
    }
  }

  /**
   * See {@link Result#requeueAfter(Duration)}.
   *
   * @param delay how long the runtime waits before the next reconcile of the key
   */
  record RequeueAfter(Duration delay) implements Result {
    /**
     * Checks the delay, so that a zero or negative one fails in the reconcile that returned it.
     *
     * @param delay how long to wait; positive
     * @throws IllegalArgumentException when {@code delay} is zero or negative
     */
    public RequeueAfter {
      Objects.requireNonNull(delay, "delay");
      if (delay.isNegative() || delay.isZero()) {
        throw new IllegalArgumentException(
            "requeueAfter needs a positive delay, got "
                + delay
                + "; return done() or throw to retry with backoff instead");
      }
    }
  }

  /**
   * See {@link Result#permanentFailure(String, String)}.
   *
   * @param reason the reason of the Warning event and the condition
   * @param message the message of the Warning event and the condition
   */
  record PermanentFailure(String reason, String message) implements Result {
    /**
     * Checks the reason, which the API server requires of a condition.
     *
     * @param reason the reason; not blank
     * @param message the message
     * @throws IllegalArgumentException when {@code reason} is blank
     */
    public PermanentFailure {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
      if (reason.isBlank()) {
        throw new IllegalArgumentException("a permanent failure needs a reason, e.g. InvalidSpec");
      }
    }
  }
}
