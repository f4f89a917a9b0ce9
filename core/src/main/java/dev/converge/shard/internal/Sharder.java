package dev.converge.shard.internal;

import dev.converge.metrics.ControllerMetrics.QueueListener;
import dev.converge.operator.internal.FencedClient;
import dev.converge.queue.ExponentialBackoff;
import dev.converge.queue.RateLimit;
import dev.converge.queue.internal.Ticker;
import dev.converge.queue.internal.WorkQueue;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Shares the primary objects of a shard ring out among its live members, by labelling each object
 * with the member that reconciles it; one replica runs it at a time (the leader).
 *
 * <p>It watches the ring's Leases and judges each member's liveness on its own monotonic clock
 * ({@link ShardMembers}), looking again when the next member would run out. A member is in while
 * its Lease exists. One that stops renewing has its Lease deleted by the sharder one lease duration
 * after the Lease last changed, on the resourceVersion it last saw: from then on the member's
 * renewals fail and its fence stays closed, so it can never write again to the objects given away
 * (a member whose renewal got through meanwhile keeps its Lease). A member whose Lease is deleted,
 * by itself or the sharder, is out at once. The members make a {@link ShardRing}, which names the
 * member of each object.
 *
 * <p>It watches every primary kind with an informer whose store keeps metadata only ({@link
 * MetadataOnlyStore}): the sharder of a large operator must not hold every object's spec and status
 * to read one label. An object is handled when its ring labels change and every object is handled
 * when the live members change; the rules are {@link SharderDecision}'s. Nothing is written before
 * every informer, the Leases' included, has listed: a sharder that has not seen the Leases yet must
 * not unassign anything.
 *
 * <p>Each write is one JSON merge patch of the object's labels, with the object's resourceVersion
 * as a precondition: a decision is taken from the store, which may trail the API server by a few
 * events (the sharder's own previous patch of the object among them), and an object must never be
 * given to a member while another still has it. A conflict is retried after a short backoff, when
 * the store has caught up. A 404 means the object is gone; any other failure is logged with the
 * object's kind and name and retried with a per-key backoff from 100 ms doubling to 30 s. The
 * patches go through the client given, which the operator fences on its leader Lease, so a deposed
 * sharder writes nothing.
 *
 * <p>Work is keyed by object and de-duplicated ({@link WorkQueue}): a key is handled by one of a
 * few daemon worker threads at a time, from the store as it is when the key is taken.
 */
public final class Sharder implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Sharder.class);

  /**
   * Threads that handle keys. Each waits on one label patch at a time: a dead member's share of the
   * objects is relabelled this many at once, and a patch waits for an API server that is busy with
   * the new owners' reconciles at that moment (with 4, 523 objects took 29 s on a loaded 2-core
   * machine; with 16, 1,037 took 16 s; with 32, 1,025 about 11 s; with 64, 1,016 about 7 s; with
   * 128, 986 about 5 s). Only the leader runs them; they wait on the API server, not on the CPU,
   * and park when there is nothing to relabel.
   */
  static final int WORKERS = 128;

  /** Objects per page of an informer's list, as the operator's own informers page. */
  static final long PAGE_SIZE = 500;

  /** The retry delay of a key whose patch failed. */
  static final ExponentialBackoff RETRY =
      new ExponentialBackoff(Duration.ofMillis(100), Duration.ofSeconds(30));

  /** How long {@link #close()} waits for a worker in the middle of a patch. */
  private static final Duration STOP_WAIT = Duration.ofSeconds(10);

  private static final String ALL_NAMESPACES = "";

  /** A unit of work: one object, or a fresh look at the Leases. */
  private sealed interface Work permits ObjectKey, MembershipCheck {}

  /** One primary object. */
  private record ObjectKey(Primary primary, String namespace, String name) implements Work {
    @Override
    public String toString() {
      return primary.kind + " " + (namespace == null ? name : namespace + "/" + name);
    }
  }

  /** Read the ring's Leases again and rebuild the ring if the live members changed. */
  private enum MembershipCheck implements Work {
    INSTANCE
  }

  /** The live members as last judged, with the ring over them. */
  private record Membership(SortedSet<String> live, ShardRing ring, Set<String> liveValues) {
    static Membership of(SortedSet<String> live) {
      Set<String> values = new HashSet<>();
      live.forEach(identity -> values.add(ShardLabels.value(identity)));
      return new Membership(
          Collections.unmodifiableSortedSet(new TreeSet<>(live)),
          ShardRing.of(live),
          Set.copyOf(values));
    }
  }

  /** A primary kind and its informers (one per namespace, or one for all). */
  private static final class Primary {
    final String kind;
    final ResourceDefinitionContext context;
    final boolean namespaced;
    final Map<String, SharedIndexInformer<GenericKubernetesResource>> informers =
        new LinkedHashMap<>();

    Primary(Class<? extends HasMetadata> type) {
      this.kind = HasMetadata.getKind(type);
      this.context = ResourceDefinitionContext.fromResourceType(type);
      this.namespaced = Namespaced.class.isAssignableFrom(type);
    }

    Store<GenericKubernetesResource> storeFor(String namespace) {
      SharedIndexInformer<GenericKubernetesResource> informer = informers.get(ALL_NAMESPACES);
      if (informer == null && namespace != null) {
        informer = informers.get(namespace);
      }
      return informer == null ? null : informer.getStore();
    }
  }

  private final KubernetesClient client;
  private final String leaseNamespace;
  private final String ring;
  private final ShardLabels keys;
  private final List<Primary> primaries = new ArrayList<>();
  private final Set<String> namespaces;
  private final Ticker ticker;
  private final WorkQueue<Work> queue;

  private final ShardMembers members = new ShardMembers(); // guarded by itself
  private volatile Membership membership = Membership.of(new TreeSet<>());
  private volatile CompletableFuture<Void> synced = new CompletableFuture<>(); // replaced by start
  private volatile boolean listed; // every informer has listed
  private volatile boolean acting;

  private final Map<ObjectKey, Long> drainedAt = new ConcurrentHashMap<>();
  private final AtomicLong assigned = new AtomicLong();
  private final AtomicLong drainsRequested = new AtomicLong();
  private final AtomicLong moved = new AtomicLong();
  private volatile Duration lastHandOver;
  private volatile Consumer<Duration> handOverListener = d -> {};

  private final Object lifecycle = new Object();
  private boolean started; // guarded by lifecycle
  private volatile boolean closed;
  private SharedIndexInformer<Lease> leases;
  private final List<Thread> workers = new ArrayList<>();

  /**
   * A sharder, not yet started.
   *
   * @param client the client the sharder watches and patches with; the operator passes one fenced
   *     on its leader Lease
   * @param leaseNamespace the namespace of the ring's Leases
   * @param ring the ring's name
   * @param primaries the kinds whose objects are shared out
   * @param namespaces the namespaces the objects are watched in; empty for all namespaces
   * @param ticker the monotonic clock members' liveness and hand-overs are measured on
   */
  public Sharder(
      KubernetesClient client,
      String leaseNamespace,
      String ring,
      List<Class<? extends HasMetadata>> primaries,
      Set<String> namespaces,
      Ticker ticker) {
    this.client = Objects.requireNonNull(client, "client");
    if (leaseNamespace == null || leaseNamespace.isBlank()) {
      throw new IllegalArgumentException("sharder lease namespace must not be blank");
    }
    this.leaseNamespace = leaseNamespace;
    this.keys = ShardLabels.of(ring);
    this.ring = ring;
    if (primaries.isEmpty()) {
      throw new IllegalArgumentException("sharder of ring " + ring + " has no primary kind");
    }
    primaries.forEach(type -> this.primaries.add(new Primary(type)));
    this.namespaces = new TreeSet<>(namespaces);
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.queue = new WorkQueue<>(ticker, RETRY, RateLimit.DEFAULT, QueueListener.none());
  }

  /**
   * Registers what is told each completed hand-over's duration (drain requested to reassigned), for
   * a timer; replaces any earlier listener. Called on a worker thread: it must be quick and must
   * not throw.
   *
   * @param listener told each duration
   */
  public void onHandOver(Consumer<Duration> listener) {
    this.handOverListener = Objects.requireNonNull(listener, "listener");
  }

  /**
   * Starts the informers and the worker threads. The sharder acts once every informer has listed.
   *
   * @throws IllegalStateException when started before or closed
   */
  public void start() {
    List<CompletableFuture<Void>> syncs = new ArrayList<>();
    synchronized (lifecycle) {
      if (started || closed) {
        throw new IllegalStateException("sharder of ring " + ring + " already started or closed");
      }
      started = true;
      leases =
          client
              .leases()
              .inNamespace(leaseNamespace)
              .withLabel(ShardLease.RING_LABEL, ring)
              .runnableInformer(0);
      leases.exceptionHandler(retrying("Lease in namespace " + leaseNamespace));
      leases.addEventHandler(
          new ResourceEventHandler<>() {
            @Override
            public void onAdd(Lease lease) {
              queue.add(MembershipCheck.INSTANCE);
            }

            @Override
            public void onUpdate(Lease before, Lease after) {
              queue.add(MembershipCheck.INSTANCE);
            }

            @Override
            public void onDelete(Lease lease, boolean finalStateUnknown) {
              queue.add(MembershipCheck.INSTANCE);
            }
          });
      for (Primary primary : primaries) {
        var resources = client.genericKubernetesResources(primary.context);
        if (!primary.namespaced || namespaces.isEmpty()) {
          primary.informers.put(ALL_NAMESPACES, informer(primary, resources.inAnyNamespace(), ""));
        } else {
          for (String ns : namespaces) {
            primary.informers.put(
                ns, informer(primary, resources.inNamespace(ns), " in namespace " + ns));
          }
        }
      }
      for (int i = 0; i < WORKERS; i++) {
        Thread worker = new Thread(this::work, "converge-sharder-" + ring + "-" + i);
        worker.setDaemon(true);
        workers.add(worker);
        worker.start();
      }
      syncs.add(leases.start().toCompletableFuture());
      for (Primary primary : primaries) {
        primary.informers.values().forEach(i -> syncs.add(i.start().toCompletableFuture()));
      }
    }
    synced =
        CompletableFuture.allOf(syncs.toArray(CompletableFuture[]::new))
            .whenComplete(
                (v, failure) -> {
                  if (failure != null) {
                    log.warn(
                        "sharder of ring {}: an informer stopped before it synced", ring, failure);
                    return;
                  }
                  log.info(
                      "sharder of ring {}: Leases and {} synced, sharing out",
                      ring,
                      primaries.stream().map(p -> p.kind).toList());
                  listed = true;
                  queue.add(MembershipCheck.INSTANCE);
                });
  }

  private SharedIndexInformer<GenericKubernetesResource> informer(
      Primary primary, Informable<GenericKubernetesResource> scope, String where) {
    SharedIndexInformer<GenericKubernetesResource> informer =
        scope.withLimit(PAGE_SIZE).runnableInformer(0);
    informer.itemStore(new MetadataOnlyStore(keys));
    informer.exceptionHandler(retrying(primary.kind + where));
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(GenericKubernetesResource obj) {
            enqueue(primary, obj);
          }

          @Override
          public void onUpdate(GenericKubernetesResource before, GenericKubernetesResource after) {
            Map<String, String> was = before.getMetadata().getLabels();
            Map<String, String> now = after.getMetadata().getLabels();
            if (!Objects.equals(keys.memberOf(was), keys.memberOf(now))
                || keys.draining(was) != keys.draining(now)) {
              enqueue(primary, after);
            }
          }

          @Override
          public void onDelete(GenericKubernetesResource obj, boolean finalStateUnknown) {
            enqueue(primary, obj);
          }
        });
    return informer;
  }

  private ExceptionHandler retrying(String what) {
    return (isStarted, failure) -> {
      if (closed) {
        return false;
      }
      log.warn(
          "sharder of ring {}: list/watch of {} failed ({}): {}; retrying",
          ring,
          what,
          isStarted ? "watching" : "listing",
          failure.toString());
      return true;
    };
  }

  private void enqueue(Primary primary, HasMetadata obj) {
    queue.add(
        new ObjectKey(primary, obj.getMetadata().getNamespace(), obj.getMetadata().getName()));
  }

  private void work() {
    while (true) {
      Optional<Work> next = queue.take();
      if (next.isEmpty()) {
        return;
      }
      Work work = next.get();
      try {
        if (work instanceof ObjectKey key) {
          handle(key);
          queue.forget(key);
        } else {
          checkMembership();
        }
      } catch (RuntimeException e) {
        failed(work, e);
      } finally {
        queue.done(work);
      }
    }
  }

  private void failed(Work work, RuntimeException e) {
    if (closed) {
      log.debug("sharder of ring {}: {} failed while closing: {}", ring, work, e.toString());
      return;
    }
    if (!(work instanceof ObjectKey key)) {
      log.warn("sharder of ring {}: reading the Leases failed; again in 1 s", ring, e);
      queue.addAfter(work, Duration.ofSeconds(1));
      return;
    }
    Duration delay = queue.addRateLimited(key);
    if (e instanceof KubernetesClientException k && k.getCode() == 409) {
      // the store trailed the API server: decide again once it has caught up
      log.debug("sharder of ring {}: {} changed meanwhile; again in {}", ring, key, delay);
    } else if (FencedClient.fenced(e)) {
      log.info(
          "sharder of ring {}: patching {} held back, no longer the leader; again in {}",
          ring,
          key,
          delay);
    } else {
      log.warn(
          "sharder of ring {}: patching the labels of {} failed; again in {}: {}",
          ring,
          key,
          delay,
          e.toString());
    }
  }

  private void checkMembership() {
    long now = ticker.nanoTime();
    SortedSet<String> live;
    long untilExpiry;
    Map<String, String> expired;
    synchronized (members) {
      members.observe(leases.getStore().list(), now);
      live = members.present();
      expired = members.expired(now);
      untilExpiry = members.nanosUntilNextExpiry(now);
    }
    if (untilExpiry != Long.MAX_VALUE) {
      queue.addAfter(MembershipCheck.INSTANCE, Duration.ofNanos(untilExpiry));
    }
    if (listed && !expired.isEmpty() && !countOut(expired)) {
      queue.addAfter(MembershipCheck.INSTANCE, Duration.ofSeconds(1));
    }
    Membership before = membership;
    boolean changed = !live.equals(before.live());
    if (changed) {
      membership = Membership.of(live);
      log.info("sharder of ring {}: live members {} (were {})", ring, live, before.live());
    }
    if (listed && (changed || !acting)) {
      acting = true;
      enqueueAll();
    }
  }

  /**
   * Deletes each expired member's Lease on the resourceVersion last seen. Only a deleted Lease
   * counts a member out: its renewal, sent with the Lease's resourceVersion, fails from then on, so
   * a member that was frozen or cut off cannot open its fence again once its objects are given
   * away; and a member whose renewal reached the API server after all keeps its Lease (the delete
   * finds another resourceVersion). The informer sees the delete, and the next check gives the
   * member's objects to the others.
   *
   * @return false when a delete failed for another reason than a conflict or a Lease already gone
   */
  private boolean countOut(Map<String, String> expired) {
    boolean done = true;
    for (Map.Entry<String, String> lease : expired.entrySet()) {
      try {
        client
            .leases()
            .inNamespace(leaseNamespace)
            .withName(lease.getKey())
            .lockResourceVersion(lease.getValue())
            .delete();
        log.info(
            "sharder of ring {}: Lease {}/{} was not renewed for its lease duration; deleted, its"
                + " objects go to the other members",
            ring,
            leaseNamespace,
            lease.getKey());
      } catch (RuntimeException e) {
        if (e instanceof KubernetesClientException k
            && (k.getCode() == 409 || k.getCode() == 404)) {
          continue; // renewed meanwhile, or gone already: the informer brings the news
        }
        done = false;
        log.warn(
            "sharder of ring {}: deleting the expired Lease {}/{} failed, again in 1 s: {}",
            ring,
            leaseNamespace,
            lease.getKey(),
            e.toString());
      }
    }
    return done;
  }

  private void enqueueAll() {
    for (Primary primary : primaries) {
      for (SharedIndexInformer<GenericKubernetesResource> informer : primary.informers.values()) {
        for (GenericKubernetesResource obj : informer.getStore().list()) {
          enqueue(primary, obj);
        }
      }
    }
  }

  private void handle(ObjectKey key) {
    if (!acting) {
      return; // every object is enqueued when the sharder starts acting
    }
    Store<GenericKubernetesResource> store = key.primary().storeFor(key.namespace());
    GenericKubernetesResource obj =
        store == null ? null : store.getByKey(Cache.namespaceKeyFunc(key.namespace(), key.name()));
    if (obj == null) {
      drainedAt.remove(key);
      return;
    }
    Membership m = membership;
    Map<String, String> labels = obj.getMetadata().getLabels();
    SharderDecision decision =
        SharderDecision.decide(m.ring(), m.liveValues(), keys, key.namespace(), key.name(), labels);
    switch (decision.action()) {
      case ASSIGN -> assign(key, obj, decision.member());
      case DRAIN -> drain(key, obj);
      case NONE, WAIT -> {}
    }
  }

  private void assign(ObjectKey key, GenericKubernetesResource obj, String member) {
    Map<String, String> labels = obj.getMetadata().getLabels();
    String current = keys.memberOf(labels);
    ObjectNode patch = JsonNodeFactory.instance.objectNode();
    ObjectNode metadata = patch.putObject("metadata");
    metadata.put("resourceVersion", obj.getMetadata().getResourceVersion());
    ObjectNode labelPatch = metadata.putObject("labels");
    labelPatch.put(keys.shardKey(), member);
    if (keys.draining(labels)) {
      labelPatch.putNull(keys.drainKey());
    }
    if (!patch(key, patch)) {
      return;
    }
    long now = ticker.nanoTime();
    assigned.incrementAndGet();
    Long drained = drainedAt.remove(key);
    if (current != null || drained != null) {
      moved.incrementAndGet();
    }
    if (drained != null) {
      Duration handOver = Duration.ofNanos(now - drained);
      lastHandOver = handOver;
      try {
        handOverListener.accept(handOver);
      } catch (RuntimeException e) {
        log.warn("sharder of ring {}: the hand-over listener failed", ring, e);
      }
    }
    log.debug(
        "sharder of ring {}: {} assigned to {}{}",
        ring,
        key,
        member,
        current != null ? " (its member " + current + " is not live)" : "");
  }

  private void drain(ObjectKey key, GenericKubernetesResource obj) {
    ObjectNode patch = JsonNodeFactory.instance.objectNode();
    ObjectNode metadata = patch.putObject("metadata");
    metadata.put("resourceVersion", obj.getMetadata().getResourceVersion());
    metadata.putObject("labels").put(keys.drainKey(), "true");
    if (!patch(key, patch)) {
      return;
    }
    drainedAt.put(key, ticker.nanoTime());
    drainsRequested.incrementAndGet();
    log.debug(
        "sharder of ring {}: {} asked of {}",
        ring,
        key,
        keys.memberOf(obj.getMetadata().getLabels()));
  }

  /** Sends {@code patch}; false when the object is gone. */
  private boolean patch(ObjectKey key, ObjectNode patch) {
    var resources = client.genericKubernetesResources(key.primary().context);
    Resource<GenericKubernetesResource> resource;
    if (key.primary().namespaced) {
      NonNamespaceOperation<GenericKubernetesResource, ?, Resource<GenericKubernetesResource>> in =
          resources.inNamespace(key.namespace());
      resource = in.withName(key.name());
    } else {
      resource = resources.withName(key.name());
    }
    try {
      resource.patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        log.debug("sharder of ring {}: {} is gone", ring, key);
        drainedAt.remove(key);
        return false;
      }
      throw e;
    }
  }

  /**
   * Waits until every informer has listed, after which the sharder acts.
   *
   * @param timeout how long to wait at most
   * @return true when synced, false when the time ran out, an informer failed, or the thread was
   *     interrupted (its flag then set again)
   */
  public boolean awaitSynced(Duration timeout) {
    try {
      synced.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException | ExecutionException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Stops the informers and the worker threads; a second call does nothing. */
  @Override
  public void close() {
    synchronized (lifecycle) {
      if (closed) {
        return;
      }
      closed = true;
    }
    queue.shutDown();
    List<SharedIndexInformer<?>> informers = new ArrayList<>();
    if (leases != null) {
      informers.add(leases);
    }
    primaries.forEach(p -> informers.addAll(p.informers.values()));
    for (SharedIndexInformer<?> informer : informers) {
      try {
        informer.stop();
      } catch (RuntimeException e) {
        log.warn("sharder of ring {}: stopping an informer failed: {}", ring, e.toString());
      }
    }
    long deadline = System.nanoTime() + STOP_WAIT.toNanos();
    for (Thread worker : workers) {
      try {
        worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (worker.isAlive()) {
        log.warn("sharder of ring {}: {} is still sending a patch", ring, worker.getName());
      }
    }
  }

  /**
   * The live members as last judged.
   *
   * @return their identities, sorted
   */
  public SortedSet<String> liveMembers() {
    return membership.live();
  }

  /**
   * How many objects are labelled for each member now, as the sharder's store has them.
   *
   * @return shard label value to number of objects, members not live included
   */
  public SortedMap<String, Long> assignments() {
    SortedMap<String, Long> counts = new TreeMap<>();
    for (Primary primary : primaries) {
      for (SharedIndexInformer<GenericKubernetesResource> informer : primary.informers.values()) {
        for (GenericKubernetesResource obj : informer.getStore().list()) {
          String member = keys.memberOf(obj.getMetadata().getLabels());
          if (member != null) {
            counts.merge(member, 1L, Long::sum);
          }
        }
      }
    }
    return counts;
  }

  /**
   * How many objects the sharder labelled with a member since it started.
   *
   * @return the shard label patches the API server accepted
   */
  public long assigned() {
    return assigned.get();
  }

  /**
   * How many hand-overs the sharder asked for since it started.
   *
   * @return the drain label patches the API server accepted
   */
  public long drainsRequested() {
    return drainsRequested.get();
  }

  /**
   * How many objects went from one member to another since the sharder started: taken from a member
   * not live, or given to another after their member let them go.
   *
   * @return the objects moved
   */
  public long moved() {
    return moved.get();
  }

  /**
   * How unevenly the objects are shared among the live members: (largest share - smallest share) /
   * mean share; 0 with fewer than two live members or no objects.
   *
   * @return the imbalance, 0 when even
   */
  public double imbalance() {
    Membership m = membership;
    if (m.liveValues().size() < 2) {
      return 0;
    }
    Map<String, Long> counts = assignments();
    long max = Long.MIN_VALUE;
    long min = Long.MAX_VALUE;
    long sum = 0;
    for (String value : m.liveValues()) {
      long n = counts.getOrDefault(value, 0L);
      max = Math.max(max, n);
      min = Math.min(min, n);
      sum += n;
    }
    double mean = (double) sum / m.liveValues().size();
    return mean == 0 ? 0 : (max - min) / mean;
  }

  /**
   * How long the latest hand-over took, on the sharder's monotonic clock: from the drain patch
   * accepted to the patch that gave the object to its new member accepted.
   *
   * @return the duration, or empty when no hand-over has completed yet
   */
  public Optional<Duration> lastHandOver() {
    return Optional.ofNullable(lastHandOver);
  }

  /** What the store keeps of each object, for measurements. */
  List<GenericKubernetesResource> stored() {
    List<GenericKubernetesResource> all = new ArrayList<>();
    for (Primary primary : primaries) {
      primary.informers.values().forEach(i -> all.addAll(i.getStore().list()));
    }
    return all;
  }
}
