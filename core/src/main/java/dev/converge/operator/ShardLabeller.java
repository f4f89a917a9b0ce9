package dev.converge.operator;

import dev.converge.queue.internal.Ticker;
import dev.converge.shard.internal.ShardView;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names the member of a {@linkplain OperatorBuilder#sharded() sharded} operator's ring that a new
 * primary object belongs to, for a mutating admission webhook to put the shard label on the object
 * as it is created. Without it the sharder labels every new primary with a write of its own once
 * the object is stored; with it the object is stored already assigned, the sharder finds nothing to
 * do, and the member's cache sees the object in its first version.
 *
 * <p>It watches the ring's Leases with an informer and judges the members' liveness the way the
 * sharder does, so {@link #labelsFor} answers from memory, never with an API call, and never holds
 * an admission request up. Its view may trail the sharder's (a member that has just joined or run
 * out): that is safe, because the sharder accepts any label naming a live member and moves an
 * object whose label names another member than the ring's through its usual hand-over, in which the
 * old member lets go before the new one starts. A stale view costs one hand-over, never two members
 * reconciling one object. A label naming a member that is not live is replaced by the sharder as an
 * unlabelled object's is.
 *
 * <p>Label an object on CREATE only, and only when it carries no shard label of the ring yet: the
 * sharder owns the label from then on, and a webhook that set it on an update would undo its
 * hand-overs. The webhook needs list and watch on {@code coordination.k8s.io} Leases in the Lease
 * namespace, which a sharded operator's RBAC has. Thread-safe.
 */
public final class ShardLabeller implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ShardLabeller.class);

  private final ShardView view;

  private ShardLabeller(ShardView view) {
    this.view = view;
  }

  /**
   * Starts watching the Leases of {@code ring} in {@code leaseNamespace}; returns at once. Until
   * the first list has arrived it labels nothing, and the sharder labels those objects as before.
   *
   * @param client the client the Leases are watched with
   * @param leaseNamespace the namespace of the ring's Leases: the leader election's namespace
   * @param ring the ring's name: the leader election's Lease name ({@link
   *     LeaderElection#leaseName()})
   * @return the labeller, watching; close it to stop the watch
   * @throws IllegalArgumentException when the namespace or the ring is blank
   */
  public static ShardLabeller watching(
      KubernetesClient client, String leaseNamespace, String ring) {
    return new ShardLabeller(new ShardView(client, leaseNamespace, ring, Ticker.system()).start());
  }

  /**
   * The labels to add to {@code object} at its creation: {@code {shard.converge.dev/<ring>:
   * <member>}} for the member the ring over the live members gives {@code namespace/name} to. Empty
   * when the object already carries the ring's shard label, when it has no name yet ({@code
   * generateName}: the API server picks the name after admission), when no member is live, and when
   * something went wrong (logged): the sharder then labels it, as without a labeller. Never throws,
   * makes no API call.
   *
   * @param object the object as it is about to be created
   * @return the labels to add; never null
   */
  public Map<String, String> labelsFor(HasMetadata object) {
    try {
      ObjectMeta meta = object == null ? null : object.getMetadata();
      if (meta == null || view.labels().memberOf(meta.getLabels()) != null) {
        return Map.of();
      }
      return view.labelsFor(meta.getNamespace(), meta.getName());
    } catch (RuntimeException e) {
      log.warn("shard labeller: no label for {}; the sharder will assign it", describe(object), e);
      return Map.of();
    }
  }

  private static String describe(HasMetadata object) {
    try {
      ObjectMeta meta = object.getMetadata();
      String ns = meta.getNamespace();
      return object.getKind() + " " + (ns == null || ns.isEmpty() ? "" : ns + "/") + meta.getName();
    } catch (RuntimeException e) {
      return "an object";
    }
  }

  /** Stops watching the Leases; a second call does nothing. */
  @Override
  public void close() {
    view.close();
  }
}
