package dev.converge.operator.internal;

import dev.converge.builder.IndexDefinition;
import dev.converge.metrics.ControllerMetrics;
import dev.converge.source.Caches;
import dev.converge.source.ResourceCache;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One informer per kind (per watched namespace, when the operator watches a set of namespaces),
 * shared by every controller of an operator. Controllers declare what they need (kinds, indexes,
 * handlers) before {@link #start}; afterwards the set is fixed.
 *
 * <p>Each informer gets an exception handler that logs and keeps retrying, because fabric8's
 * default handler stops an informer on most watch errors and the operator would then go blind
 * without anyone noticing. An informer that stops anyway is reported through {@link #failures()}.
 */
public final class SharedInformers implements Caches {

  private static final Logger log = LoggerFactory.getLogger(SharedInformers.class);

  private final KubernetesClient client;
  private final Set<String> namespaces;
  private final Duration resync;
  private final RejectedObjects rejected;
  private final ControllerMetrics metrics;
  private final Map<Class<?>, Entry<?>> entries = new ConcurrentHashMap<>();

  /** Kinds cached whole: written by strategies (owned) or asked for explicitly. */
  private final Set<Class<?>> whole = ConcurrentHashMap.newKeySet();

  /** Kinds whose informers select on one label: {@code [key, value]}. */
  private final Map<Class<?>, String[]> selected = new ConcurrentHashMap<>();

  private final List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** Set once start() begins: the set of kinds is fixed from then on. */
  private boolean starting;

  /** Published once start() has filled every entry; readers (health probes) check it first. */
  private volatile boolean started;

  private volatile boolean stopping;

  /**
   * How long the cache may still hold an object the API server has moved past before the informer's
   * watch is taken for dead. Watch events normally trail a write by milliseconds.
   */
  static final Duration STALE_GRACE = Duration.ofSeconds(10);

  /** An informer is relisted for staleness at most this often. */
  static final Duration RELIST_AT_MOST_EVERY = Duration.ofMinutes(1);

  private volatile Duration staleGrace = STALE_GRACE;
  private volatile Duration relistAtMostEvery = RELIST_AT_MOST_EVERY;

  private static final class Entry<R extends HasMetadata> {
    final Class<R> type;
    final Map<String, Function<R, List<String>>> indexers = new HashMap<>();
    final List<ResourceEventHandler<R>> handlers = new ArrayList<>();
    final AtomicLong watchErrors = new AtomicLong();
    final List<Watched> informers = new ArrayList<>();
    InformerCache<R> cache;

    Entry(Class<R> type) {
      this.type = type;
    }
  }

  /** One informer and what it last failed with, for health. */
  private static final class Watched {
    final String what;
    final SharedIndexInformer<? extends HasMetadata> informer;
    final AtomicLong errors = new AtomicLong();
    volatile String lastError;
    final AtomicLong relists = new AtomicLong();
    volatile long lastRelistNanos;

    Watched(String what, SharedIndexInformer<? extends HasMetadata> informer) {
      this.what = what;
      this.informer = informer;
    }
  }

  /**
   * @param namespaces the namespaces to watch namespaced kinds in; empty for all namespaces
   */
  public SharedInformers(
      KubernetesClient client,
      Set<String> namespaces,
      Duration resync,
      RejectedObjects rejected,
      ControllerMetrics metrics) {
    this.client = client;
    this.namespaces = Set.copyOf(namespaces);
    this.resync = resync;
    this.rejected = rejected;
    this.metrics = metrics;
  }

  /** Makes sure {@code type} gets an informer. */
  public synchronized <R extends HasMetadata> void require(Class<R> type) {
    entry(type);
  }

  /**
   * Caches {@code type} whole, with {@code metadata.managedFields} and kubectl's last-applied
   * annotation: strategies read them on the kinds they write. Every other kind is cached without
   * them ({@link TrimmingItemStore}).
   */
  public synchronized <R extends HasMetadata> void keepWhole(Class<R> type) {
    entry(type);
    whole.add(type);
  }

  /**
   * Caches only the objects of {@code type} labelled {@code key=value}: a shard member's share.
   *
   * @param type the kind
   * @param key the label's key
   * @param value the label's value
   */
  public synchronized void select(Class<? extends HasMetadata> type, String key, String value) {
    entry(type);
    selected.put(type, new String[] {key, value});
  }

  /** True when only objects of {@code type} carrying a label are cached. */
  public boolean selected(Class<?> type) {
    return selected.containsKey(type);
  }

  /** The kinds cached whole: those strategies write. */
  public Set<Class<?>> wholeKinds() {
    return Set.copyOf(whole);
  }

  /** True when objects of {@code type} are cached without managedFields. */
  public boolean trimmed(Class<?> type) {
    return entries.containsKey(type) && !whole.contains(type);
  }

  public synchronized <R extends HasMetadata> void addIndex(IndexDefinition<R> index) {
    Entry<R> entry = entry(index.type());
    if (entry.indexers.containsKey(index.name())) {
      throw new IllegalArgumentException(
          "index '"
              + index.name()
              + "' on "
              + HasMetadata.getKind(index.type())
              + " is defined twice; index names must be unique per kind");
    }
    String place = "index '" + index.name() + "'";
    entry.indexers.put(
        index.name(),
        r -> {
          // fabric8 updates its indexes object by object: an exception here would leave them half
          // updated and make the informer list again and again. The object is left out instead.
          try {
            List<String> keys = index.function().keys(r);
            if (keys == null) {
              throw new IllegalStateException("the index function returned null; return List.of()");
            }
            rejected.accepted(r, place);
            return keys;
          } catch (RuntimeException e) {
            rejected.reject(r, place, e);
            return List.of();
          }
        });
  }

  public synchronized <R extends HasMetadata> void addHandler(
      Class<R> type, ResourceEventHandler<R> handler) {
    entry(type).handlers.add(handler);
  }

  @SuppressWarnings("unchecked")
  private <R extends HasMetadata> Entry<R> entry(Class<R> type) {
    if (starting) {
      throw new IllegalStateException(
          "informers are already running; declare every watched kind before the operator starts");
    }
    return (Entry<R>) entries.computeIfAbsent(type, t -> new Entry<>(type));
  }

  /** Creates and starts every informer; returns a future that completes when all have synced. */
  public synchronized CompletableFuture<Void> start() {
    if (starting) {
      throw new IllegalStateException("informers already started");
    }
    starting = true;
    List<Runnable> starts = new ArrayList<>();
    List<CompletableFuture<Void>> syncs = new ArrayList<>();
    for (Entry<?> entry : entries.values()) {
      syncs.add(prepare(entry, starts));
    }
    started = true; // every entry is filled in: health probes may look now
    starts.forEach(Runnable::run);
    return CompletableFuture.allOf(syncs.toArray(CompletableFuture[]::new));
  }

  private <R extends HasMetadata> CompletableFuture<Void> prepare(
      Entry<R> entry, List<Runnable> starts) {
    boolean namespaced = Namespaced.class.isAssignableFrom(entry.type);
    ObjectView<R> view = view(entry.type);
    Map<String, SharedIndexInformer<? extends HasMetadata>> byNamespace = new LinkedHashMap<>();
    if (namespaced && !namespaces.isEmpty()) {
      for (String ns : new TreeSet<>(namespaces)) {
        byNamespace.put(ns, informer(entry, view, Optional.of(ns)));
      }
    } else {
      byNamespace.put(InformerCache.ALL_NAMESPACES, informer(entry, view, Optional.empty()));
    }
    entry.cache = new InformerCache<>(entry.type, byNamespace, view::copy);
    List<CompletableFuture<Void>> syncs = new ArrayList<>();
    for (Watched watched : entry.informers) {
      CompletableFuture<Void> synced = new CompletableFuture<>();
      syncs.add(synced);
      starts.add(
          () ->
              watched
                  .informer
                  .start()
                  .whenComplete(
                      (v, t) -> {
                        if (t == null) {
                          synced.complete(null);
                        } else {
                          synced.completeExceptionally(t);
                        }
                      }));
    }
    return CompletableFuture.allOf(syncs.toArray(CompletableFuture[]::new));
  }

  /**
   * How stored objects of {@code type} are seen. Built-in kinds are stored typed, as the API server
   * can only hold objects their classes read. A custom resource is stored as it came (generic) and
   * read into its class object by object: the API server accepts whatever its CRD schema allows,
   * which the class may not, and one such object must not fail the informer's whole list (and with
   * it every object of the kind). It is left out and reported instead.
   */
  private <R extends HasMetadata> ObjectView<R> view(Class<R> type) {
    KubernetesSerialization serialization = client.getKubernetesSerialization();
    if (!CustomResource.class.isAssignableFrom(type)) {
      return new ObjectView<>() {
        @Override
        public Optional<R> read(HasMetadata stored) {
          return Optional.of(type.cast(stored));
        }

        @Override
        public Optional<R> copy(HasMetadata stored) {
          return Optional.of(ObjectCopy.of(type.cast(stored), serialization));
        }
      };
    }
    String place = "deserialisation into " + type.getName();
    return new ObjectView<>() {
      @Override
      public Optional<R> read(HasMetadata stored) {
        try {
          R typed = serialization.convertValue(stored, type);
          rejected.accepted(stored, place);
          return Optional.of(typed);
        } catch (RuntimeException e) {
          rejected.reject(stored, place, e);
          return Optional.empty();
        }
      }

      @Override
      public Optional<R> copy(HasMetadata stored) {
        return read(stored); // a conversion is a copy already
      }
    };
  }

  /** Typed access to what an informer stores. */
  private interface ObjectView<R extends HasMetadata> {
    /** The object as its class, sharing state with the store where it can (read-only use). */
    Optional<R> read(HasMetadata stored);

    /** A private copy of the object as its class. */
    Optional<R> copy(HasMetadata stored);
  }

  /**
   * Objects per page of an informer's list: the page size client-go's pager uses. A list of every
   * object of a kind in one response is held whole (the response, then the parsed list) until its
   * last item is stored; at 10,000 objects of three kinds that reached 495 MiB of a 512 MiB heap,
   * and the collector's full collections held up the first reconciles after a restart. Pages keep
   * what is held to one page at a time. A paged list is a consistent read (fabric8 asks for any
   * cached version only when unpaged); on the local control plane the caches of 10,000 objects of
   * three kinds synced as fast either way.
   */
  static final long LIST_PAGE_SIZE = 500;

  private <R extends HasMetadata> SharedIndexInformer<? extends HasMetadata> informer(
      Entry<R> entry, ObjectView<R> view, Optional<String> ns) {
    if (CustomResource.class.isAssignableFrom(entry.type)) {
      var resources =
          client.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(entry.type));
      var scope = ns.isPresent() ? resources.inNamespace(ns.get()) : resources.inAnyNamespace();
      String[] label = selected.get(entry.type);
      SharedIndexInformer<GenericKubernetesResource> informer =
          paged(label == null ? scope : scope.withLabel(label[0], label[1]));
      informer.itemStore(new TrimmingItemStore<>(!whole.contains(entry.type)));
      return wire(entry, view, ns, informer);
    }
    var resources = client.resources(entry.type);
    var scope = ns.isPresent() ? resources.inNamespace(ns.get()) : resources.inAnyNamespace();
    String[] label = selected.get(entry.type);
    SharedIndexInformer<R> informer =
        paged(label == null ? scope : scope.withLabel(label[0], label[1]));
    informer.itemStore(new TrimmingItemStore<>(!whole.contains(entry.type)));
    return wire(entry, view, ns, informer);
  }

  /** An informer, not yet started, that lists in pages of {@link #LIST_PAGE_SIZE}. */
  private <T extends HasMetadata> SharedIndexInformer<T> paged(Informable<T> scope) {
    return scope.withLimit(LIST_PAGE_SIZE).runnableInformer(resync.toMillis());
  }

  private <R extends HasMetadata, S extends HasMetadata> SharedIndexInformer<S> wire(
      Entry<R> entry, ObjectView<R> view, Optional<String> ns, SharedIndexInformer<S> informer) {
    String kindName = HasMetadata.getKind(entry.type);
    String kind = kindName + ns.map(n -> " in namespace " + n).orElse("");
    Watched watched = new Watched(kind, informer);
    Map<String, Function<S, List<String>>> indexers = new HashMap<>();
    entry.indexers.forEach(
        (name, function) ->
            indexers.put(name, stored -> view.read(stored).map(function).orElse(List.of())));
    indexers.put(ResourceCache.CONTROLLER_OWNER_INDEX, SharedInformers::controllerOwnerUid);
    informer.addIndexers(indexers);
    informer.exceptionHandler(
        (isStarted, t) -> {
          if (stopping) {
            return false;
          }
          long n = entry.watchErrors.incrementAndGet();
          watched.errors.incrementAndGet();
          InformerFailure failure = InformerFailure.of(kindName, entry.type, t);
          watched.lastError = failure.explanation();
          metrics.informerError(kindName, failure.reason());
          log.warn(
              "informer for {}: list/watch failed (error #{}, informer {}): {}; retrying",
              kind,
              n,
              isStarted ? "running" : "starting",
              failure.explanation());
          return true;
        });
    if (!entry.handlers.isEmpty()) {
      informer.addEventHandler(
          new ResourceEventHandler<S>() {
            @Override
            public void onAdd(S obj) {
              view.read(obj).ifPresent(r -> entry.handlers.forEach(h -> h.onAdd(r)));
            }

            @Override
            public void onUpdate(S oldObj, S newObj) {
              Optional<R> before = view.read(oldObj); // first, so the newest state is reported last
              Optional<R> now = view.read(newObj);
              if (now.isEmpty()) {
                return;
              }
              for (ResourceEventHandler<R> h : entry.handlers) {
                if (before.isPresent()) {
                  h.onUpdate(before.get(), now.get());
                } else {
                  h.onAdd(now.get()); // was unreadable before: new to the controllers
                }
              }
            }

            @Override
            public void onDelete(S obj, boolean deletedFinalStateUnknown) {
              view.read(obj)
                  .ifPresent(
                      r -> entry.handlers.forEach(h -> h.onDelete(r, deletedFinalStateUnknown)));
            }
          });
    }
    informer
        .stopped()
        .whenComplete(
            (v, t) -> {
              if (!stopping) {
                String message =
                    "informer for " + kind + " stopped unexpectedly" + (t == null ? "" : ": " + t);
                failures.add(message);
                log.error("{}; the operator no longer sees changes of this kind", message, t);
              }
            });
    entry.informers.add(watched);
    log.debug("starting informer for {}", ns.isPresent() ? kind : kind + " (all namespaces)");
    return informer;
  }

  private static List<String> controllerOwnerUid(HasMetadata resource) {
    List<OwnerReference> refs = resource.getMetadata().getOwnerReferences();
    if (refs == null) {
      return List.of();
    }
    for (OwnerReference ref : refs) {
      if (Boolean.TRUE.equals(ref.getController()) && ref.getUid() != null) {
        return List.of(ref.getUid());
      }
    }
    return List.of();
  }

  /** Shortens the grace before a stale cache is acted on, for tests. */
  void staleGrace(Duration grace) {
    this.staleGrace = grace;
  }

  /** Shortens the least time between two relists of one informer, for tests. */
  void relistAtMostEvery(Duration every) {
    this.relistAtMostEvery = every;
  }

  /**
   * Told that the API server has moved past a cached object: a write based on {@code cached} found
   * it deleted, or at a newer resourceVersion. If the cache still holds {@code cached} at the same
   * resourceVersion once the grace period has passed, the informer's watch has stopped delivering
   * events (a connection that died without the client noticing), and the informer lists again and
   * watches anew; its handlers hear of everything that changed meanwhile. An informer that cannot
   * be relisted is reported through {@link #failures()}, which makes the operator report itself not
   * live.
   *
   * @param evidence what the API server answered, for the log ("had deleted it")
   */
  public void serverMovedPast(HasMetadata cached, String evidence) {
    if (!started || stopping || cached == null || cached.getMetadata() == null) {
      return;
    }
    Entry<?> entry = entries.get(cached.getClass());
    String version = cached.getMetadata().getResourceVersion();
    if (entry == null || version == null) {
      return;
    }
    String namespace = cached.getMetadata().getNamespace();
    String name = cached.getMetadata().getName();
    Duration grace = staleGrace;
    CompletableFuture.delayedExecutor(grace.toMillis(), TimeUnit.MILLISECONDS)
        .execute(() -> checkStale(entry, namespace, name, version, evidence, grace));
  }

  private void checkStale(
      Entry<?> entry,
      String namespace,
      String name,
      String version,
      String evidence,
      Duration grace) {
    if (stopping) {
      return;
    }
    String key = Cache.namespaceKeyFunc(namespace, name);
    String kindName = HasMetadata.getKind(entry.type);
    for (Watched w : entry.informers) {
      HasMetadata stored = w.informer.getIndexer().getByKey(key);
      if (stored == null || !version.equals(stored.getMetadata().getResourceVersion())) {
        continue;
      }
      long wait =
          relistStale(w, kindName, describeStale(namespace, name, version, grace, evidence));
      if (wait > 0) {
        // Relisted less than a minute ago: look again once another relist is allowed, so that a
        // watch that went silent again is not left to itself.
        CompletableFuture.delayedExecutor(wait, TimeUnit.NANOSECONDS)
            .execute(() -> checkStale(entry, namespace, name, version, evidence, grace));
      }
    }
  }

  private static String describeStale(
      String namespace, String name, String version, Duration grace, String evidence) {
    return "its cache still holds "
        + (namespace == null ? name : namespace + "/" + name)
        + " at resourceVersion "
        + version
        + ", "
        + grace.toSeconds()
        + " s or more after the API server "
        + evidence;
  }

  /**
   * Relists {@code w} unless it was relisted less than {@link #RELIST_AT_MOST_EVERY} ago (a
   * minute).
   *
   * @return 0 when done (or reported as a failure); otherwise the nanoseconds until it may be
   */
  private long relistStale(Watched w, String kindName, String why) {
    synchronized (w) {
      long now = System.nanoTime();
      long since = now - w.lastRelistNanos;
      long every = relistAtMostEvery.toNanos();
      if (w.lastRelistNanos != 0 && since < every) {
        return every - since;
      }
      w.lastRelistNanos = now;
    }
    metrics.informerError(kindName, "stale-cache");
    if (InformerRelist.relist(w.informer)) {
      w.relists.incrementAndGet();
      log.warn(
          "informer for {}: {}; its watch has stopped delivering events. Listing again and"
              + " watching anew",
          w.what,
          why);
    } else {
      String message = "informer for " + w.what + " is stale (" + why + ") and cannot list again";
      failures.add(message);
      log.error("{}; restart the operator", message);
    }
    return 0;
  }

  /**
   * How many objects of {@code type} the caches hold now, without copying them.
   *
   * @param type the kind
   * @return the count; 0 before the informers start
   */
  public int size(Class<?> type) {
    int count = 0;
    for (SharedIndexInformer<? extends HasMetadata> informer : informersOf(type)) {
      count += informer.getStore().listKeys().size();
    }
    return count;
  }

  /**
   * The informers of {@code type}: one, or one per watched namespace. For diagnostics and tests.
   */
  public List<SharedIndexInformer<? extends HasMetadata>> informersOf(Class<?> type) {
    Entry<?> entry = entries.get(type);
    return entry == null
        ? List.of()
        : entry.informers.stream()
            .<SharedIndexInformer<? extends HasMetadata>>map(w -> w.informer)
            .toList();
  }

  /** How often the informers of {@code type} were listed again because their cache was stale. */
  public long staleRelists(Class<? extends HasMetadata> type) {
    Entry<?> entry = entries.get(type);
    return entry == null ? 0 : entry.informers.stream().mapToLong(w -> w.relists.get()).sum();
  }

  /** True when every informer has delivered its initial list. */
  public boolean hasSynced() {
    return started
        && entries.values().stream()
            .allMatch(
                e ->
                    !e.informers.isEmpty()
                        && e.informers.stream().allMatch(w -> w.informer.hasSynced()));
  }

  /** Messages for informers that stopped without being asked to. */
  public List<String> failures() {
    return List.copyOf(failures);
  }

  /**
   * One line per informer that is blind right now: its last list or watch failed and it has not
   * watched successfully since. Empty when every informer watches.
   */
  public List<String> blind() {
    if (!started || stopping) {
      return List.of();
    }
    List<String> blind = new ArrayList<>();
    for (Entry<?> entry : entries.values()) {
      for (Watched w : entry.informers) {
        String last = w.lastError;
        if (last != null && !w.informer.isWatching()) {
          blind.add(
              "informer for "
                  + w.what
                  + " cannot "
                  + (w.informer.hasSynced() ? "watch" : "list")
                  + " ("
                  + w.errors.get()
                  + " failed attempts): "
                  + last);
        }
      }
    }
    return blind;
  }

  /** One line per informer that has not delivered its initial list, with its last error. */
  public List<String> unsynced() {
    List<String> unsynced = new ArrayList<>();
    if (!started) {
      return unsynced;
    }
    for (Entry<?> entry : entries.values()) {
      for (Watched w : entry.informers) {
        if (!w.informer.hasSynced()) {
          String last = w.lastError;
          unsynced.add(w.what + (last == null ? " (no error reported)" : ": " + last));
        }
      }
    }
    return unsynced;
  }

  public void stop() {
    stopping = true;
    for (Entry<?> entry : entries.values()) {
      for (Watched watched : entry.informers) {
        try {
          watched.informer.stop();
        } catch (RuntimeException e) {
          log.warn(
              "stopping informer for {} failed: {}", HasMetadata.getKind(entry.type), e.toString());
        }
      }
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  public <R extends HasMetadata> ResourceCache<R> of(Class<R> type) {
    Entry<R> entry = (Entry<R>) entries.get(type);
    if (entry == null || entry.cache == null) {
      throw new IllegalArgumentException(
          "no informer cache for "
              + HasMetadata.getKind(type)
              + " ("
              + type.getName()
              + "): no controller owns or watches it"
              + (entry != null ? " (the operator has not started yet)" : "")
              + ". Add .owns("
              + type.getSimpleName()
              + ".class) or .watches(...) to a controller,"
              + " or OperatorBuilder.cache("
              + type.getSimpleName()
              + ".class)");
    }
    return entry.cache;
  }

  @Override
  public boolean contains(Class<? extends HasMetadata> type) {
    Entry<?> entry = entries.get(type);
    return entry != null && entry.cache != null;
  }
}
