package dev.converge.operator.internal;

import dev.converge.queue.internal.Ticker;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;

/**
 * fabric8's Lease lock that tells a {@link LeaseFence} when the API server accepted a write of the
 * Lease naming this instance as holder, with the time the write was sent.
 */
public final class FencingLeaseLock extends LeaseLock {

  private final LeaseFence fence;
  private final Ticker ticker;

  public FencingLeaseLock(
      String namespace, String name, String identity, LeaseFence fence, Ticker ticker) {
    super(namespace, name, identity);
    this.fence = fence;
    this.ticker = ticker;
  }

  @Override
  public synchronized void create(KubernetesClient client, LeaderElectionRecord record) {
    long sentAt = ticker.nanoTime();
    super.create(client, record);
    accepted(record, sentAt);
  }

  @Override
  public synchronized void update(KubernetesClient client, LeaderElectionRecord record) {
    long sentAt = ticker.nanoTime();
    super.update(client, record);
    accepted(record, sentAt);
  }

  private void accepted(LeaderElectionRecord record, long sentAt) {
    if (identity().equals(record.getHolderIdentity())) {
      fence.renewed(sentAt);
    }
  }
}
