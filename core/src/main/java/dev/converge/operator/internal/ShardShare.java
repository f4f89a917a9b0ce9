package dev.converge.operator.internal;

import dev.converge.builder.ControllerDefinition;
import dev.converge.builder.WatchDefinition;
import dev.converge.handler.internal.EnqueueControllerOwner;
import dev.converge.handler.internal.EnqueueSelf;
import dev.converge.shard.internal.ShardLabels;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This replica's share of a sharded operator: the label its objects carry, the kinds cached by that
 * label only, and how it hands an object over when the sharder asks.
 *
 * @param labels the ring's labels
 * @param member the shard label's value for this replica
 * @param selected the kinds whose informers select on the label: primaries, and owned kinds that
 *     nothing else watches
 * @param primaries the primary kinds, which the sharder labels (the runtime never labels them)
 * @param handOvers objects handed over since the start
 */
public record ShardShare(
    ShardLabels labels,
    String member,
    Set<Class<?>> selected,
    Set<Class<?>> primaries,
    AtomicLong handOvers) {

  /**
   * The share of {@code member} for these controllers: which kinds its informers select on the
   * shard label.
   *
   * @param labels the ring's labels
   * @param member the shard label's value for this replica
   * @param controllers the operator's controllers
   * @param wholeCaches kinds cached for the operator's own use ({@code OperatorBuilder.cache})
   * @return the share
   * @throws IllegalArgumentException when a kind is the primary of one controller and owned by
   *     another: the sharder labels it by its own name, the owner's replica by its owner's, and the
   *     two would never agree
   */
  public static ShardShare of(
      ShardLabels labels,
      String member,
      List<ControllerDefinition<?>> controllers,
      Collection<Class<? extends HasMetadata>> wholeCaches) {
    Set<Class<?>> primaries = new LinkedHashSet<>();
    Set<Class<?>> owned = new LinkedHashSet<>();
    Set<Class<?>> whole = new LinkedHashSet<>(wholeCaches);
    for (ControllerDefinition<?> definition : controllers) {
      primaries.add(definition.primaryType());
      for (WatchDefinition<?> watch : definition.watches()) {
        if (watch.handler() instanceof EnqueueControllerOwner) {
          owned.add(watch.type());
        } else if (!(watch.handler() instanceof EnqueueSelf
            && watch.type() == definition.primaryType())) {
          whole.add(watch.type()); // mapped: every replica needs every object of the kind
        }
      }
    }
    for (ControllerDefinition<?> definition : controllers) {
      if (owned.contains(definition.primaryType())) {
        throw new IllegalArgumentException(
            "sharding: "
                + HasMetadata.getKind(definition.primaryType())
                + " is the primary kind of controller "
                + definition.name()
                + " and owned by another controller; a sharded operator cannot share it out by"
                + " both. Run it without sharded(), or let one controller handle the kind");
      }
    }
    Set<Class<?>> selected = new LinkedHashSet<>(primaries);
    for (Class<?> kind : owned) {
      if (!whole.contains(kind)) {
        selected.add(kind);
      }
    }
    return new ShardShare(
        labels, member, Set.copyOf(selected), Set.copyOf(primaries), new AtomicLong());
  }

  /** Whether the sharder asks this replica to hand {@code primary} over. */
  public boolean draining(HasMetadata primary) {
    return labels.draining(primary.getMetadata().getLabels());
  }

  /**
   * Hands {@code primary} over: removes the shard and drain labels, after which the object leaves
   * this replica's caches and the sharder gives it to another member. Called by the worker that
   * holds the object's key, so no reconcile of it runs meanwhile.
   *
   * @param client the write client (fenced on this replica's shard Lease)
   * @param primary the cached primary
   * @return false when the object is gone already
   * @throws io.fabric8.kubernetes.client.KubernetesClientException 409 when the object changed
   *     since it was cached
   */
  public boolean handOver(KubernetesClient client, HasMetadata primary) {
    Map<String, Object> remove = new HashMap<>();
    remove.put(labels.shardKey(), null);
    remove.put(labels.drainKey(), null);
    // The cached resourceVersion as a precondition: a drain seen twice in a stale cache (the first
    // hand-over's own patch not yet in it) must not take the labels off after the sharder gave the
    // object to another member; the second patch gets 409 and the key is looked at again.
    Map<String, Object> metadata = new HashMap<>();
    metadata.put("labels", remove);
    if (primary.getMetadata().getResourceVersion() != null) {
      metadata.put("resourceVersion", primary.getMetadata().getResourceVersion());
    }
    String patch = client.getKubernetesSerialization().asJson(Map.of("metadata", metadata));
    var resources = client.resources(primary.getClass());
    String namespace = primary.getMetadata().getNamespace();
    var target =
        namespace == null
            ? resources.withName(primary.getMetadata().getName())
            : resources.inNamespace(namespace).withName(primary.getMetadata().getName());
    try {
      target.patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
      if (e.getCode() == 404) {
        return false;
      }
      throw e;
    }
    handOvers.incrementAndGet();
    return true;
  }

  /**
   * Puts this replica's shard label on a child it writes, when the child's kind is cached by the
   * label (else the child would be missing from the cache that the strategies and the owner index
   * read).
   *
   * @param desired the child about to be written
   */
  public void label(HasMetadata desired) {
    if (!selected.contains(desired.getClass()) || primaries.contains(desired.getClass())) {
      return;
    }
    Map<String, String> current = desired.getMetadata().getLabels();
    Map<String, String> withShard = current == null ? new HashMap<>() : new HashMap<>(current);
    withShard.put(labels.shardKey(), member);
    desired.getMetadata().setLabels(withShard);
  }
}
