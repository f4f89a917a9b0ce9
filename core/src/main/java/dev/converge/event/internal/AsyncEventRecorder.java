package dev.converge.event.internal;

import dev.converge.event.EventRecorder;
import dev.converge.event.EventType;
import dev.converge.retry.internal.ResourceText;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link EventRecorder} that never makes its caller wait for the API server.
 *
 * <p>{@link #record} only files the Event in a bounded queue and returns; one background thread
 * writes the queue through an {@link AggregatingEventWriter}. On the way:
 *
 * <ul>
 *   <li>a repeat of an Event still waiting in the queue (same object, type, reason and message)
 *       adds to that entry's count instead of taking a place, so a burst of repeats costs one
 *       request;
 *   <li>each involved object has a token bucket: every request it causes takes a token, and an
 *       object without one has its Event dropped (a reconcile failing in a loop cannot flood the
 *       namespace or the API server);
 *   <li>when the queue is full the new Event is dropped.
 * </ul>
 *
 * Dropped Events are counted through the {@code dropped} callback, with the reason {@value
 * #RATE_LIMITED}, {@value #QUEUE_FULL} or {@value #STOPPED}.
 */
public final class AsyncEventRecorder implements EventRecorder {

  public static final String RATE_LIMITED = "rate-limited";
  public static final String QUEUE_FULL = "queue-full";
  public static final String STOPPED = "stopped";

  private static final Logger LOG = LoggerFactory.getLogger(AsyncEventRecorder.class);

  /** Occurrences of one key not yet written. */
  private static final class Pending {
    final HasMetadata involved;
    int count = 1;
    final Instant first;
    Instant last;

    Pending(HasMetadata involved, Instant at) {
      this.involved = involved;
      this.first = at;
      this.last = at;
    }
  }

  /** Tokens of one involved object. */
  private static final class Bucket {
    double tokens;
    long lastMillis;
  }

  private final AggregatingEventWriter writer;
  private final Clock clock;
  private final int capacity;
  private final int burst;
  private final double tokensPerMilli;
  private final Consumer<String> dropped;
  private final String threadName;
  private final Object lock = new Object();
  private final LinkedHashMap<AggregatingEventWriter.Key, Pending> queue = new LinkedHashMap<>();
  private final LinkedHashMap<String, Bucket> buckets;
  private Thread thread;
  private boolean writing;
  private boolean closed;

  /**
   * @param capacity Events waiting at most (distinct keys)
   * @param burst requests one object may cause at once
   * @param refill the time in which one object gets one more token
   * @param objects how many objects' buckets to remember (least recently used are forgotten)
   * @param dropped told the reason of every dropped Event
   */
  public AsyncEventRecorder(
      AggregatingEventWriter writer,
      Clock clock,
      int capacity,
      int burst,
      Duration refill,
      int objects,
      Consumer<String> dropped,
      String threadName) {
    this.writer = Objects.requireNonNull(writer, "writer");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.capacity = capacity;
    this.burst = burst;
    this.tokensPerMilli = 1.0 / Math.max(1, refill.toMillis());
    this.dropped = Objects.requireNonNull(dropped, "dropped");
    this.threadName = Objects.requireNonNull(threadName, "threadName");
    this.buckets =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
            return size() > objects;
          }
        };
  }

  @Override
  public void record(HasMetadata involved, EventType type, String reason, String message) {
    AggregatingEventWriter.Key key;
    try {
      key = AggregatingEventWriter.keyOf(involved, type, reason, message);
    } catch (RuntimeException e) {
      LOG.warn("could not record {} event {}: {}", type, reason, e.getMessage());
      return;
    }
    Instant now = clock.instant();
    String drop = null;
    synchronized (lock) {
      Pending waiting = queue.get(key);
      if (closed) {
        drop = STOPPED;
      } else if (waiting != null) {
        waiting.count++;
        waiting.last = now;
      } else if (queue.size() >= capacity) {
        drop = QUEUE_FULL;
      } else if (!takeToken(key.object(), now.toEpochMilli())) {
        drop = RATE_LIMITED;
      } else {
        queue.put(key, new Pending(involved, now));
        startOrWake();
      }
    }
    if (drop != null) {
      dropped.accept(drop);
      LOG.debug(
          "dropped {} event {} about {} ({})", type, reason, ResourceText.describe(involved), drop);
    }
  }

  /** Events waiting to be written. */
  public int pending() {
    synchronized (lock) {
      return queue.size() + (writing ? 1 : 0);
    }
  }

  /**
   * Stops taking Events and gives the writer up to {@code timeout} to send those waiting; what is
   * still waiting then is dropped.
   *
   * @return true when every waiting Event was written (or failed) in time
   */
  public boolean close(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Thread running;
    synchronized (lock) {
      closed = true;
      lock.notifyAll();
      while (!queue.isEmpty() || writing) {
        long left = deadline - System.nanoTime();
        if (left <= 0 || thread == null) {
          break;
        }
        try {
          lock.wait(Math.max(1, left / 1_000_000L));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      int left = queue.size();
      queue.clear();
      for (int i = 0; i < left; i++) {
        dropped.accept(STOPPED);
      }
      running = thread;
      lock.notifyAll();
      if (left > 0 || writing) {
        LOG.warn("stopped with {} event(s) unwritten", left + (writing ? 1 : 0));
      }
    }
    if (running != null && writing()) {
      running.interrupt();
    }
    return pending() == 0;
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(5));
  }

  private boolean writing() {
    synchronized (lock) {
      return writing;
    }
  }

  private boolean takeToken(String object, long nowMillis) {
    Bucket bucket = buckets.get(object);
    if (bucket == null) {
      bucket = new Bucket();
      bucket.tokens = burst;
      bucket.lastMillis = nowMillis;
      buckets.put(object, bucket);
    }
    long elapsed = Math.max(0, nowMillis - bucket.lastMillis);
    bucket.tokens = Math.min(burst, bucket.tokens + elapsed * tokensPerMilli);
    bucket.lastMillis = nowMillis;
    if (bucket.tokens < 1) {
      return false;
    }
    bucket.tokens -= 1;
    return true;
  }

  /** Called under the lock. */
  private void startOrWake() {
    if (thread == null) {
      thread = new Thread(this::drain, threadName);
      thread.setDaemon(true);
      thread.start();
    } else {
      lock.notifyAll();
    }
  }

  private void drain() {
    while (true) {
      AggregatingEventWriter.Key key;
      Pending next;
      synchronized (lock) {
        writing = false;
        lock.notifyAll();
        while (queue.isEmpty()) {
          if (closed) {
            thread = null;
            return;
          }
          try {
            lock.wait();
          } catch (InterruptedException e) {
            thread = null;
            return;
          }
        }
        Iterator<Map.Entry<AggregatingEventWriter.Key, Pending>> it = queue.entrySet().iterator();
        Map.Entry<AggregatingEventWriter.Key, Pending> head = it.next();
        it.remove();
        key = head.getKey();
        next = head.getValue();
        writing = true;
      }
      try {
        writer.write(next.involved, key, next.count, next.first, next.last);
      } catch (RuntimeException e) {
        if (dev.converge.operator.LeaseLostException.isCause(e)) {
          // Not the leader (any more): its Events are not written, like its other writes.
          LOG.debug("{} event {} not recorded: {}", key.type(), key.reason(), e.getMessage());
          continue;
        }
        LOG.warn(
            "could not record {} event {} for {}: {}",
            key.type(),
            key.reason(),
            ResourceText.describe(next.involved),
            e.toString());
        LOG.debug("event write failure", e);
      }
    }
  }
}
