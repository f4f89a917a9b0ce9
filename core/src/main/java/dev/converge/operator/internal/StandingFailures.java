package dev.converge.operator.internal;

import dev.converge.builder.ControllerDefinition;
import dev.converge.queue.internal.Ticker;
import dev.converge.reconcile.ObjectKey;
import dev.converge.reconcile.Refusal;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one controller remembers of failures that stand for a primary's generation — a write the API
 * server refused, a permanent failure — so that it neither retries them with backoff nor reconciles
 * again for the echo of its own condition write.
 */
final class StandingFailures {

  private static final Logger log = LoggerFactory.getLogger(ControllerRuntime.class);

  private final String controller;
  private final String kind;
  private final RuntimeServices services;
  private final Ticker ticker;

  /**
   * Primaries whose last reconcile ended in a refusal or a permanent failure of their current
   * generation; see {@link #refused}. At most one entry per primary, removed when it reconciles
   * without failure or is gone.
   */
  private final Map<ObjectKey, Standing> standing = new ConcurrentHashMap<>();

  /** Keys queued by a watch of another object (or a generic trigger) since their last reconcile. */
  private final Set<ObjectKey> wokenByWatch = ConcurrentHashMap.newKeySet();

  private final FailureCondition failureCondition;

  /** First safety-net recheck of a refused primary; doubles per refusal of one generation. */
  static final Duration REFUSAL_RECHECK = Duration.ofMinutes(2);

  /** The longest safety-net recheck of a refused primary. */
  static final Duration REFUSAL_RECHECK_MAX = Duration.ofMinutes(30);

  /** A failure that stands for one generation of one primary. */
  private static final class Standing {
    final String uid;
    final Long generation;
    final int strikes;

    /** When the safety net reconciles it again (ticker nanos); empty for a permanent failure. */
    final Optional<Long> recheckAt;

    /** The resourceVersion the runtime's own condition write produced, until it is seen once. */
    volatile String echoVersion;

    Standing(HasMetadata primary, int strikes, Optional<Long> recheckAt, Standing before) {
      this.uid = primary.getMetadata().getUid();
      this.generation = primary.getMetadata().getGeneration();
      this.strikes = strikes;
      this.recheckAt = recheckAt;
      // An unchanged condition is not written again: the earlier write's echo is still to come.
      this.echoVersion =
          before != null && before.sameGenerationAs(primary) ? before.echoVersion : null;
    }

    boolean sameGenerationAs(HasMetadata primary) {
      return Objects.equals(uid, primary.getMetadata().getUid())
          && Objects.equals(generation, primary.getMetadata().getGeneration());
    }
  }

  StandingFailures(ControllerDefinition<?> definition, RuntimeServices services) {
    this.controller = definition.name();
    this.kind = HasMetadata.getKind(definition.primaryType());
    this.services = services;
    this.ticker = services.ticker();
    this.failureCondition = new FailureCondition(services, definition.name());
  }

  /**
   * Ends a reconcile whose write the API server refused as such (see {@link Refusal}): no retry
   * with backoff, since the same request would get the same answer. Instead: one INFO line without
   * a stack trace, a Warning Event on the primary with the refusal's reason and message (a repeat
   * folds into its count), the {@code converge.reconcile.refused} counter, and the {@value
   * Refusal#CONDITION_TYPE}=False condition with the same reason and message and the primary's
   * generation. The next change of the primary (other than that condition write) or of something
   * that maps to it reconciles it again. As a safety net for refusals that lift without any such
   * change (a ResourceQuota raised, a webhook's policy changed), the primary is also checked again
   * after {@link #REFUSAL_RECHECK}, doubling per refusal of the same generation up to {@link
   * #REFUSAL_RECHECK_MAX}.
   *
   * @return when to reconcile it again at the latest
   */
  Duration refused(ObjectKey key, HasMetadata primary, Refusal refusal) {
    Standing before = standing.get(key);
    int strikes =
        before != null && before.sameGenerationAs(primary) ? Math.min(before.strikes + 1, 16) : 0;
    Duration recheck = REFUSAL_RECHECK.multipliedBy(1L << Math.min(strikes, 10));
    if (recheck.compareTo(REFUSAL_RECHECK_MAX) > 0) {
      recheck = REFUSAL_RECHECK_MAX;
    }
    String reason = refusal.reason().condition();
    services.metrics().refused(controller, refusal.kind(), refusal.reason().tag());
    log.info(
        "reconcile of {} {} ended: the API server refused a write ({}): {}; not retried until"
            + " generation {} changes or something it watches does (checked again in {} at the"
            + " latest)",
        kind,
        key,
        reason,
        refusal.message(),
        primary.getMetadata().getGeneration(),
        recheck);
    services.events().warning(primary, reason, refusal.message());
    Standing refused =
        new Standing(primary, strikes, Optional.of(ticker.nanoTime() + recheck.toNanos()), before);
    standing.put(key, refused);
    failureCondition
        .fail(primary, reason, refusal.message())
        .ifPresent(written -> refused.echoVersion = written);
    return recheck;
  }

  /** A permanent failure of this generation: the condition, and the echo of its write skipped. */
  void permanent(ObjectKey key, HasMetadata primary, String reason, String message) {
    Standing failed = new Standing(primary, 0, Optional.empty(), standing.get(key));
    standing.put(key, failed);
    failureCondition
        .fail(primary, reason, message)
        .ifPresent(written -> failed.echoVersion = written);
  }

  /** {@code key} was queued by a watch of another object (or a generic trigger). */
  void woken(ObjectKey key) {
    wokenByWatch.add(key);
  }

  /** {@code key} is gone: nothing stands for it any more. */
  void forget(ObjectKey key) {
    standing.remove(key);
    wokenByWatch.remove(key);
  }

  /**
   * A reconcile ended without failure: a failure that stood for this primary is over, and the
   * {@value Refusal#CONDITION_TYPE} condition, if the primary carries it False, is removed.
   */
  void recovered(ObjectKey key, HasMetadata primary) {
    Standing was = standing.remove(key);
    if (failureCondition.clear(primary).isPresent() || was != null) {
      log.debug("{} {}: reconciled again after a failure", kind, key);
    }
  }

  /**
   * True when the only change since this primary's failure is the runtime's own condition write:
   * its watch event would otherwise reconcile it once more, repeating the refused write for
   * nothing. Any other change of the primary (a new resourceVersion), any event of a watched object
   * that maps to it, and the safety-net recheck of a refusal reconcile it.
   */
  boolean onlyOwnConditionWriteSince(ObjectKey key, HasMetadata primary) {
    boolean woken = wokenByWatch.remove(key);
    Standing failed = standing.get(key);
    if (failed == null) {
      return false;
    }
    String echo = failed.echoVersion;
    if (echo == null || !echo.equals(primary.getMetadata().getResourceVersion())) {
      return false; // changed since (or the cache has not seen the write yet: its echo comes)
    }
    failed.echoVersion = null; // seen once; whatever comes next at this version is not the echo
    boolean due = failed.recheckAt.filter(at -> ticker.nanoTime() - at >= 0).isPresent();
    if (woken || due) {
      return false;
    }
    log.debug(
        "{} {}: changed only by the runtime's own {} condition since it failed; not reconciled"
            + " again",
        kind,
        key,
        Refusal.CONDITION_TYPE);
    return true;
  }
}
