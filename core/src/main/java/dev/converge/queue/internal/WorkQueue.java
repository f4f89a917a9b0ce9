package dev.converge.queue.internal;

import dev.converge.metrics.ControllerMetrics.QueueListener;
import dev.converge.queue.ExponentialBackoff;
import dev.converge.queue.RateLimit;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A de-duplicating work queue of keys with the guarantees a reconcile loop relies on:
 *
 * <ul>
 *   <li>a key is in the queue at most once, however many times it is added while waiting;
 *   <li>a key handed to one worker is not handed to another until that worker calls {@link #done};
 *   <li>a key added while it is being processed is marked dirty and becomes ready exactly once more
 *       when {@link #done} is called, so no event is lost and none is processed twice;
 *   <li>{@link #addAfter} delays a key (the earliest pending delay wins) and {@link
 *       #addRateLimited} delays it by a per-key exponential backoff that {@link #forget} resets.
 * </ul>
 *
 * Time comes from a {@link Ticker}, so tests drive delays with a {@link ManualTicker}.
 *
 * @param <K> the key type; must have value semantics (equals/hashCode)
 */
public final class WorkQueue<K> {

  private final Ticker ticker;
  private final ExponentialBackoff backoff;
  private final TokenBucket bucket;
  private final QueueListener listener;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();

  private final ArrayDeque<K> ready = new ArrayDeque<>();
  private final Map<K, Long> readySince = new HashMap<>();
  private final Set<K> dirty = new HashSet<>();
  private final Set<K> processing = new HashSet<>();
  private final Map<K, Long> delayedDue = new HashMap<>();
  private final PriorityQueue<Delayed<K>> delayed = new PriorityQueue<>();
  private final Map<K, Integer> failures = new HashMap<>();
  private long sequence;
  private boolean shutDown;
  private boolean draining;

  private record Delayed<K>(long due, long seq, K key) implements Comparable<Delayed<K>> {
    @Override
    public int compareTo(Delayed<K> o) {
      int byDue = Long.compare(due, o.due);
      return byDue != 0 ? byDue : Long.compare(seq, o.seq);
    }
  }

  /**
   * A queue with every part chosen: the runtime builds its controllers' queues this way.
   *
   * @param ticker the time source of delays and of the rate limit
   * @param backoff the per-key retry delay
   * @param rateLimit the overall limit on retries, shared by every key
   * @param listener observes the queue, for metrics
   */
  public WorkQueue(
      Ticker ticker, ExponentialBackoff backoff, RateLimit rateLimit, QueueListener listener) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.bucket = new TokenBucket(Objects.requireNonNull(rateLimit, "rateLimit"), ticker);
    this.listener = Objects.requireNonNull(listener, "listener");
    ticker.onAdvance(this::wake);
  }

  /**
   * A queue with the default overall rate limit ({@link RateLimit#DEFAULT}).
   *
   * @param ticker the time source of delays and of the rate limit
   * @param backoff the per-key retry delay
   * @param listener observes the queue, for metrics
   */
  public WorkQueue(Ticker ticker, ExponentialBackoff backoff, QueueListener listener) {
    this(ticker, backoff, RateLimit.DEFAULT, listener);
  }

  /** A queue on the system clock with the default backoff and rate limit, and no listener. */
  public WorkQueue() {
    this(Ticker.system(), ExponentialBackoff.DEFAULT, RateLimit.DEFAULT, QueueListener.none());
  }

  /**
   * Makes {@code key} ready now, unless it is already waiting. Ignored after shutdown.
   *
   * @param key the key to process
   */
  public void add(K key) {
    Objects.requireNonNull(key, "key");
    lock.lock();
    try {
      addLocked(key);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Makes {@code key} ready after {@code delay}. If the key already has an earlier pending delay,
   * that one stands. A zero or negative delay is the same as {@link #add}.
   *
   * @param key the key to process
   * @param delay how long to wait before the key becomes ready
   */
  public void addAfter(K key, Duration delay) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(delay, "delay");
    if (delay.isZero() || delay.isNegative()) {
      add(key);
      return;
    }
    lock.lock();
    try {
      if (shutDown) {
        return;
      }
      long due = ticker.nanoTime() + delay.toNanos();
      Long existing = delayedDue.get(key);
      if (existing != null && existing <= due) {
        return;
      }
      delayedDue.put(key, due);
      delayed.add(new Delayed<>(due, sequence++, key));
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Schedules another attempt for {@code key} after the later of its next backoff delay and the
   * overall rate limit, and returns that delay. Each call without an intervening {@link #forget}
   * doubles the key's backoff; every call takes a token from the queue's bucket.
   *
   * @param key the key whose processing failed
   * @return the delay after which the key becomes ready again
   */
  public Duration addRateLimited(K key) {
    Objects.requireNonNull(key, "key");
    Duration delay;
    lock.lock();
    try {
      int count = failures.merge(key, 1, Integer::sum);
      Duration own = backoff.delayAfter(count);
      Duration overall = bucket.reserve();
      delay = overall.compareTo(own) > 0 ? overall : own;
      listener.retried();
    } finally {
      lock.unlock();
    }
    addAfter(key, delay);
    return delay;
  }

  /**
   * Clears the failure count of {@code key}, so its next backoff starts from the beginning. Call it
   * when the key's processing succeeded.
   *
   * @param key the key
   */
  public void forget(K key) {
    lock.lock();
    try {
      failures.remove(key);
    } finally {
      lock.unlock();
    }
  }

  /**
   * How many consecutive failures {@code key} has had since it was last forgotten.
   *
   * @param key the key
   * @return the number of {@link #addRateLimited} calls since the last {@link #forget}; 0 for a key
   *     never retried
   */
  public int failures(K key) {
    lock.lock();
    try {
      return failures.getOrDefault(key, 0);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Blocks until a key is ready and hands it to the caller, who must call {@link #done} with it.
   * Returns empty once the queue is shut down (or, after {@link #drainAndShutDown}, once nothing is
   * left). Interruption also returns empty, with the interrupt flag restored.
   *
   * @return the key to process, or empty when the worker should stop
   */
  public Optional<K> take() {
    lock.lock();
    try {
      while (true) {
        if (shutDown && !draining) {
          return Optional.empty();
        }
        promoteDue();
        if (!ready.isEmpty()) {
          return Optional.of(handOut());
        }
        if (draining && processing.isEmpty()) {
          shutDown();
          return Optional.empty();
        }
        try {
          Delayed<K> next = delayed.peek();
          if (next == null || draining) {
            changed.await();
          } else {
            long wait = next.due() - ticker.nanoTime();
            if (wait > 0) {
              changed.awaitNanos(wait);
            }
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return Optional.empty();
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Like {@link #take} but never blocks: empty when no key is ready now.
   *
   * @return a ready key, which the caller must hand back with {@link #done}, or empty
   */
  public Optional<K> poll() {
    lock.lock();
    try {
      if (shutDown && !draining) {
        return Optional.empty();
      }
      promoteDue();
      return ready.isEmpty() ? Optional.empty() : Optional.of(handOut());
    } finally {
      lock.unlock();
    }
  }

  /**
   * Ends the processing of {@code key}. If it was added meanwhile, it becomes ready again (once).
   *
   * @param key a key this queue handed out
   */
  public void done(K key) {
    lock.lock();
    try {
      processing.remove(key);
      if (dirty.contains(key)) {
        pushReady(key);
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * How many keys wait for a worker now.
   *
   * @return the number of ready keys (not counting delayed or in-flight ones)
   */
  public int depth() {
    lock.lock();
    try {
      return ready.size();
    } finally {
      lock.unlock();
    }
  }

  /**
   * How many keys are being processed.
   *
   * @return the number of keys handed to workers and not yet done
   */
  public int inFlight() {
    lock.lock();
    try {
      return processing.size();
    } finally {
      lock.unlock();
    }
  }

  /** Stops handing out keys: {@link #take} returns empty from now on and adds are ignored. */
  public void shutDown() {
    lock.lock();
    try {
      shutDown = true;
      draining = false;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Stops accepting new keys but keeps handing out the ones that are ready (and ones made ready
   * again by {@link #done}); {@link #take} returns empty once nothing is ready or in flight.
   * Delayed keys are dropped unless they are already due.
   */
  public void drainAndShutDown() {
    lock.lock();
    try {
      if (!shutDown) {
        shutDown = true;
        draining = true;
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Whether {@link #shutDown} or {@link #drainAndShutDown} was called.
   *
   * @return true once the queue accepts no more keys
   */
  public boolean isShutDown() {
    lock.lock();
    try {
      return shutDown;
    } finally {
      lock.unlock();
    }
  }

  private void addLocked(K key) {
    if (!shutDown) {
      enqueueLocked(key);
    }
  }

  private void enqueueLocked(K key) {
    if (!dirty.add(key)) {
      return;
    }
    if (processing.contains(key)) {
      return; // done() makes it ready again
    }
    pushReady(key);
  }

  private void pushReady(K key) {
    ready.addLast(key);
    readySince.put(key, ticker.nanoTime());
    listener.added(ready.size());
    changed.signal();
  }

  private K handOut() {
    K key = ready.pollFirst();
    processing.add(key);
    dirty.remove(key);
    Long since = readySince.remove(key);
    listener.taken(since == null ? 0 : Math.max(0, ticker.nanoTime() - since), ready.size());
    return key;
  }

  private void promoteDue() {
    long now = ticker.nanoTime();
    Delayed<K> head;
    while ((head = delayed.peek()) != null && head.due() <= now) {
      delayed.poll();
      Long due = delayedDue.get(head.key());
      if (due != null && due == head.due()) {
        delayedDue.remove(head.key());
        // A due key is promoted even while draining: it was accepted before the shutdown.
        enqueueLocked(head.key());
      }
    }
  }

  private void wake() {
    lock.lock();
    try {
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Time left before {@code key}'s pending delayed add, if it has one: what a test or a status page
   * reads to tell when the key is next processed.
   *
   * @param key the key
   * @return the time left (zero when already due), or empty when no delayed add is pending
   */
  public Optional<Duration> pendingDelay(K key) {
    lock.lock();
    try {
      Long due = delayedDue.get(key);
      return due == null
          ? Optional.empty()
          : Optional.of(Duration.ofNanos(Math.max(0, due - ticker.nanoTime())));
    } finally {
      lock.unlock();
    }
  }

  @Override
  public String toString() {
    lock.lock();
    try {
      return "WorkQueue[ready="
          + ready.size()
          + ", inFlight="
          + processing.size()
          + ", delayed="
          + delayedDue.size()
          + (shutDown ? ", shut down" : "")
          + "]";
    } finally {
      lock.unlock();
    }
  }
}
