package dev.converge.operator.internal;

import dev.converge.queue.internal.Ticker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether this instance may write as the leader now, judged on the monotonic clock from the last
 * renewal of its Lease that the API server accepted.
 *
 * <p>Another instance takes the Lease no sooner than one lease duration after it last saw the Lease
 * change, and it can only have seen a change the API server accepted. So while the last accepted
 * renewal was <em>sent</em> less than the lease duration ago, nobody else leads. The fence closes
 * earlier, after {@code window}: what is left of the lease duration is the margin for a write that
 * passed the fence to reach the API server, and for clocks that run at slightly different rates.
 * Time measured on {@link System#nanoTime()} keeps running while the process is frozen (a stopped
 * container, a paused VM, a long GC pause), so a leader that wakes up after its Lease ran out finds
 * the fence closed before it sends anything.
 */
public final class LeaseFence {

  private final Ticker ticker;
  private final long windowNanos;
  private final AtomicLong fenced = new AtomicLong();
  private volatile boolean holding;
  private volatile long renewedAt;
  private volatile boolean renewedOnce;

  /**
   * @param window how long after sending an accepted renewal writes may still be sent; shorter than
   *     the lease duration
   */
  public LeaseFence(Ticker ticker, Duration window) {
    this.ticker = ticker;
    this.windowNanos = window.toNanos();
  }

  /**
   * The window for an election's timings: the renew deadline (after which the elector gives up
   * anyway), and never more than four fifths of the lease duration.
   */
  public static Duration window(Duration leaseDuration, Duration renewDeadline) {
    Duration fourFifths = leaseDuration.multipliedBy(4).dividedBy(5);
    return renewDeadline.compareTo(fourFifths) < 0 ? renewDeadline : fourFifths;
  }

  /** A renewal (or the acquisition) sent at {@code sentAt} was accepted by the API server. */
  public synchronized void renewed(long sentAt) {
    if (!renewedOnce || sentAt - renewedAt > 0) {
      renewedAt = sentAt;
      renewedOnce = true;
    }
  }

  /** This instance became the leader: writes may pass while renewals keep being accepted. */
  public void leading() {
    holding = true;
  }

  /** This instance lost or released the Lease: no write passes until it leads again. */
  public void closed() {
    holding = false;
  }

  /** How long writes may still pass, or zero or less when they may not. */
  public long remainingNanos() {
    if (!holding || !renewedOnce) {
      return 0;
    }
    return windowNanos - (ticker.nanoTime() - renewedAt);
  }

  /**
   * Throws unless a write may be sent now.
   *
   * @param what the request, for the message, e.g. {@code PATCH /apis/apps/v1/...}
   * @return the nanoseconds left in which the write may still be sent
   */
  public long check(String what) {
    long remaining = remainingNanos();
    if (remaining <= 0) {
      fenced.incrementAndGet();
      throw new dev.converge.operator.LeaseLostException(
          what
              + " was not sent: "
              + (holding
                  ? "the leader Lease was last renewed "
                      + Duration.ofNanos(ticker.nanoTime() - renewedAt).toMillis()
                      + " ms ago, longer than the "
                      + Duration.ofNanos(windowNanos).toMillis()
                      + " ms this instance may write for after a renewal"
                  : "this instance does not hold the leader Lease")
              + "; another instance may be leading");
    }
    return remaining;
  }

  /** Writes not sent because the fence was closed, since the start. */
  public long fencedWrites() {
    return fenced.get();
  }
}
