package dev.converge.retry;

import dev.converge.retry.internal.ResourceText;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import tools.jackson.databind.JsonNode;

/**
 * Retries a write that failed with 409 Conflict: re-read the object, re-apply the change, write
 * again, a bounded number of times with a small jittered exponential backoff between attempts.
 *
 * <p>Why bounded and small: this runs on a reconcile worker. A conflict that does not clear within
 * a handful of quick attempts is better handed back to the work queue (by throwing), whose per-key
 * backoff does not hold the worker. With the defaults (5 attempts, 10 ms doubling, capped at 100
 * ms, jitter between 50 % and 100 % of each step) the total wait never exceeds 150 ms. The waiting
 * itself is a {@link Pause} that can be replaced.
 *
 * <p>Instances are immutable; the {@code with...} methods return modified copies.
 */
public final class ConflictRetry {

  /**
   * One attempt of a retried write, given to {@link ConflictRetry#call}. Each attempt reads what it
   * writes afresh, so that a retry after a conflict works on the latest version.
   *
   * @param <T> what the write returns
   */
  @FunctionalInterface
  public interface Attempt<T> {
    /**
     * Makes one attempt.
     *
     * @param attempt the number of this attempt, counting from 1
     * @return the result of the write
     * @throws io.fabric8.kubernetes.client.KubernetesClientException a 409 Conflict to have the
     *     write retried; any other error ends the retry at once
     */
    T run(int attempt);
  }

  /** Default number of attempts, the first included. */
  public static final int DEFAULT_MAX_ATTEMPTS = 5;

  /** Default wait before the second attempt; it doubles for each attempt after. */
  public static final Duration DEFAULT_INITIAL_DELAY = Duration.ofMillis(10);

  /** Default cap of the wait between two attempts. */
  public static final Duration DEFAULT_MAX_DELAY = Duration.ofMillis(100);

  private final int maxAttempts;
  private final Duration initialDelay;
  private final Duration maxDelay;
  private final Pause pause;
  private final DoubleSupplier random;

  private ConflictRetry(
      int maxAttempts,
      Duration initialDelay,
      Duration maxDelay,
      Pause pause,
      DoubleSupplier random) {
    this.maxAttempts = maxAttempts;
    this.initialDelay = initialDelay;
    this.maxDelay = maxDelay;
    this.pause = pause;
    this.random = random;
  }

  /**
   * 5 attempts, 10 ms doubling to at most 100 ms, jittered, waiting by sleeping (at most 150 ms).
   *
   * @return the default configuration
   */
  public static ConflictRetry defaults() {
    return new ConflictRetry(
        DEFAULT_MAX_ATTEMPTS,
        DEFAULT_INITIAL_DELAY,
        DEFAULT_MAX_DELAY,
        Pause.sleeping(),
        () -> ThreadLocalRandom.current().nextDouble());
  }

  /**
   * Sets how many attempts are made before giving up, the first included.
   *
   * @param attempts 1 or more; 1 means no retry
   * @return a copy with that number of attempts
   * @throws IllegalArgumentException when {@code attempts} is less than 1
   */
  public ConflictRetry withMaxAttempts(int attempts) {
    if (attempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, was " + attempts);
    }
    return new ConflictRetry(attempts, initialDelay, maxDelay, pause, random);
  }

  /**
   * Sets the wait between attempts: {@code initial} before the second, doubling for each attempt
   * after, never more than {@code max}; each wait is then jittered to between half and all of it.
   *
   * @param initial the wait before the second attempt, not negative
   * @param max the cap of one wait, at least {@code initial}
   * @return a copy with that backoff
   * @throws IllegalArgumentException when {@code initial} is negative or greater than {@code max}
   */
  public ConflictRetry withBackoff(Duration initial, Duration max) {
    Objects.requireNonNull(initial, "initial");
    Objects.requireNonNull(max, "max");
    if (initial.isNegative() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException(
          "backoff needs 0 <= initial <= max, was initial=" + initial + " max=" + max);
    }
    return new ConflictRetry(maxAttempts, initial, max, pause, random);
  }

  /**
   * Sets how the retry waits between attempts, for instance {@link Pause#none()} on a reconcile
   * worker.
   *
   * @param newPause the way to wait
   * @return a copy that waits with {@code newPause}
   */
  public ConflictRetry withPause(Pause newPause) {
    return new ConflictRetry(
        maxAttempts, initialDelay, maxDelay, Objects.requireNonNull(newPause, "pause"), random);
  }

  /**
   * Sets the source of jitter: values in [0, 1) (values outside are clamped). Tests pass a
   * constant.
   *
   * @param newRandom the source of jitter
   * @return a copy with that source of jitter
   */
  public ConflictRetry withJitter(DoubleSupplier newRandom) {
    return new ConflictRetry(
        maxAttempts, initialDelay, maxDelay, pause, Objects.requireNonNull(newRandom, "random"));
  }

  /**
   * How many attempts are made before giving up, the first included.
   *
   * @return the number of attempts
   */
  public int maxAttempts() {
    return maxAttempts;
  }

  /**
   * The longest total time a retry with this configuration can wait between its attempts (the sum
   * of the un-jittered steps).
   *
   * @return the bound of the total wait
   */
  public Duration maxTotalWait() {
    Duration total = Duration.ZERO;
    for (int attempt = 1; attempt < maxAttempts; attempt++) {
      total = total.plus(step(attempt));
    }
    return total;
  }

  /**
   * True when {@code fresh}, read again by name after a conflict, is another object than {@code
   * read}: the one read was deleted and a new one took its name, so nothing decided for the old one
   * may be written to it. Objects without a UID (not yet created) are never replaced.
   *
   * @param read the object as it was first read
   * @param fresh the object read again by the same name
   * @return true when {@code fresh} has another UID than {@code read}
   */
  public static boolean replaced(HasMetadata read, HasMetadata fresh) {
    String uid = read.getMetadata().getUid();
    return uid != null
        && !uid.isBlank()
        && !uid.equals(fresh.getMetadata() == null ? null : fresh.getMetadata().getUid());
  }

  /**
   * True when {@code error} (or one of its causes) is an HTTP 409 Conflict from the API server.
   *
   * @param error the error to look at, or null
   * @return true for a conflict, false otherwise (and for null)
   */
  public static boolean isConflict(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof KubernetesClientException kce
          && kce.getCode() == HttpURLConnection.HTTP_CONFLICT) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  /**
   * Runs {@code attempt} until it returns without a conflict or the attempts are used up. Each
   * attempt must re-read whatever it writes; errors other than 409 are thrown at once.
   *
   * @param <T> what the write returns
   * @param resource the resource written, as {@code Kind namespace/name}, for the error message
   * @param attempt one attempt of the write
   * @return what the first attempt without a conflict returned
   * @throws ConflictRetriesExhaustedException when every attempt conflicted
   * @throws java.util.concurrent.CancellationException when the thread is interrupted while waiting
   *     between attempts (the interrupt status is kept)
   */
  public <T> T call(String resource, Attempt<T> attempt) {
    KubernetesClientException last = null;
    for (int n = 1; n <= maxAttempts; n++) {
      if (n > 1) {
        waitBefore(n, resource);
      }
      try {
        return attempt.run(n);
      } catch (KubernetesClientException e) {
        if (!isConflict(e)) {
          throw e;
        }
        last = e;
      }
    }
    throw new ConflictRetriesExhaustedException(resource, maxAttempts, last);
  }

  /**
   * Applies {@code change} to a copy of {@code object} and writes it with a PUT that carries the
   * object's resourceVersion; on 409 reads the latest version from the API server, applies {@code
   * change} to it again and retries. {@code object} itself is never modified (it may come from an
   * informer cache). When {@code change} leaves the object as it was, nothing is sent. The re-read
   * is by name, so when it finds another object (another UID: the one given was deleted and a new
   * one created in its place), nothing is written and a 404 is thrown, as for a deleted object.
   *
   * @param <T> the kind
   * @param client the client that reads and writes
   * @param object the object to change, as read (from a cache or the API server); not modified
   * @param change what to change on a copy of the object; run again on each re-read version
   * @return the object as the API server stored it; when {@code change} changed nothing, the
   *     version it was applied to, unchanged
   * @throws ConflictRetriesExhaustedException when every attempt conflicted
   * @throws io.fabric8.kubernetes.client.KubernetesClientException with code 404 when the object
   *     was deleted (or replaced by another of the same name) between attempts; any error other
   *     than a conflict as the API server returned it
   */
  public <T extends HasMetadata> T update(KubernetesClient client, T object, Consumer<T> change) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(change, "change");
    String resource = ResourceText.describe(object);
    Object[] base = {object};
    return call(
        resource,
        n -> {
          @SuppressWarnings("unchecked")
          T current = (T) base[0];
          if (n > 1) {
            T latest = client.resource(object).get();
            if (latest == null) {
              throw new KubernetesClientException(
                  resource
                      + " no longer exists; it was deleted while"
                      + " retrying a conflicting update",
                  HttpURLConnection.HTTP_NOT_FOUND,
                  null);
            }
            if (replaced(object, latest)) {
              // The name now belongs to a new object: the change was meant for the deleted one.
              throw new KubernetesClientException(
                  resource
                      + " (uid "
                      + object.getMetadata().getUid()
                      + ") no longer exists; it was deleted while retrying a conflicting update,"
                      + " and its name now belongs to a new object (uid "
                      + latest.getMetadata().getUid()
                      + "), which is left alone",
                  HttpURLConnection.HTTP_NOT_FOUND,
                  null);
            }
            current = latest;
            base[0] = latest;
          }
          KubernetesSerialization serialization = client.getKubernetesSerialization();
          T copy = serialization.clone(current);
          change.accept(copy);
          // Compared as JSON: user status/spec classes often lack equals().
          if (serialization
              .convertValue(copy, JsonNode.class)
              .equals(serialization.convertValue(current, JsonNode.class))) {
            return current;
          }
          return client.resource(copy).update();
        });
  }

  private void waitBefore(int attempt, String resource) {
    Duration step = step(attempt - 1);
    double r = Math.min(Math.max(random.getAsDouble(), 0.0), 1.0);
    Duration delay = Duration.ofNanos((long) (step.toNanos() * (0.5 + r / 2)));
    try {
      pause.pause(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      CancellationException cancelled =
          new CancellationException(
              "interrupted while retrying a conflicting write of " + resource);
      cancelled.initCause(e);
      throw cancelled;
    }
  }

  /**
   * Un-jittered wait after failed attempt {@code failed} (1-based): initial * 2^(failed-1), capped.
   */
  private Duration step(int failed) {
    long nanos = initialDelay.toNanos();
    for (int i = 1; i < failed && nanos < maxDelay.toNanos(); i++) {
      nanos *= 2;
    }
    return Duration.ofNanos(Math.min(nanos, maxDelay.toNanos()));
  }
}
