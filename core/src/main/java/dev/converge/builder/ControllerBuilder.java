package dev.converge.builder;

import dev.converge.handler.EventHandler;
import dev.converge.handler.MappingFunction;
import dev.converge.handler.internal.EnqueueControllerOwner;
import dev.converge.handler.internal.EnqueueMapped;
import dev.converge.handler.internal.EnqueueSelf;
import dev.converge.predicate.EventPredicate;
import dev.converge.queue.ExponentialBackoff;
import dev.converge.rbac.AccessRule;
import dev.converge.reconcile.ObjectKey;
import dev.converge.reconcile.Reconciler;
import dev.converge.source.IndexFunction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Describes a controller in controller-runtime's {@code For / Owns / Watches} terms:
 *
 * <pre>{@code
 * ControllerDefinition<AppDeployment> apps = ControllerBuilder.forPrimary(AppDeployment.class)
 *     .withPredicate(EventPredicate.generationChanged())
 *     .owns(Deployment.class)
 *     .index(AppDeployment.class, "by-configmap",
 *         app -> List.of(app.getMetadata().getNamespace() + "/" + app.getSpec().getConfigMapName()))
 *     .watches(ConfigMap.class, (cm, caches) -> caches.of(AppDeployment.class)
 *         .byIndex("by-configmap", cm.getMetadata().getNamespace() + "/" + cm.getMetadata().getName())
 *         .stream().map(ObjectKey::of).toList())
 *     .maxConcurrentReconciles(2)
 *     .build(new AppDeploymentReconciler());
 * }</pre>
 *
 * @param <P> the primary kind
 */
public final class ControllerBuilder<P extends HasMetadata> {

  /**
   * The annotation that keeps one owned object from being pruned: an object of an owned kind whose
   * annotations map {@value} to {@code "false"} is never deleted by {@link #pruneOwned() pruning},
   * whether or not a reconcile applied it. Set it by hand ({@code kubectl annotate}) on an object
   * to keep after its primary stops wanting it, or in the desired object itself.
   */
  public static final String PRUNE_ANNOTATION = "converge.dev/prune";

  /** The kind this controller reconciles. */
  private final Class<P> primaryType;

  private final List<EventPredicate<? super P>> primaryPredicates = new ArrayList<>();
  private final List<WatchDefinition<?>> watches = new ArrayList<>();
  private final List<IndexDefinition<?>> indexes = new ArrayList<>();
  private final List<AccessRule> extraAccess = new ArrayList<>();
  private String name;
  private int maxConcurrentReconciles; // 0: the operator's workers
  private Duration reconcileEvery;
  private ExponentialBackoff backoff = ExponentialBackoff.DEFAULT;
  private Duration reconcileDeadline;
  private boolean interruptPastDeadline;
  private boolean pruneOwned;

  private ControllerBuilder(Class<P> primaryType) {
    this.primaryType = Objects.requireNonNull(primaryType, "primaryType");
  }

  /**
   * Starts a controller that reconciles objects of {@code primaryType} (controller-runtime's {@code
   * For}).
   *
   * @param <P> the primary kind
   * @param primaryType the primary kind's class
   * @return a builder with every other setting at its default
   */
  public static <P extends HasMetadata> ControllerBuilder<P> forPrimary(Class<P> primaryType) {
    return new ControllerBuilder<>(primaryType);
  }

  /**
   * Filters events of the primary kind; several calls must all pass. Without any, every event of
   * the primary (including resyncs and status updates) causes a reconcile.
   *
   * @param predicate the filter of the primary's events
   * @return this builder
   */
  public ControllerBuilder<P> withPredicate(EventPredicate<? super P> predicate) {
    primaryPredicates.add(Objects.requireNonNull(predicate, "predicate"));
    return this;
  }

  /**
   * Reconciles the controller owner (of the primary kind) whenever an object of {@code type}
   * changes: for the objects the reconciler creates with a controller owner reference.
   *
   * @param <T> the owned kind
   * @param type the owned kind's class
   * @return this builder
   */
  public <T extends HasMetadata> ControllerBuilder<P> owns(Class<T> type) {
    return owns(type, EventPredicate.always());
  }

  /**
   * Like {@link #owns(Class)}, with a filter on the owned kind's events.
   *
   * @param <T> the owned kind
   * @param type the owned kind's class
   * @param predicate the filter of the owned kind's events
   * @return this builder
   */
  public <T extends HasMetadata> ControllerBuilder<P> owns(
      Class<T> type, EventPredicate<? super T> predicate) {
    return watchesWith(type, new EnqueueControllerOwner<>(primaryType), predicate);
  }

  /**
   * Reconciles what {@code mapping} returns whenever an object of {@code type} changes: for objects
   * the primaries reference but do not own.
   *
   * @param <T> the watched kind
   * @param type the watched kind's class
   * @param mapping the primary keys an object of {@code type} concerns
   * @return this builder
   */
  public <T extends HasMetadata> ControllerBuilder<P> watches(
      Class<T> type, MappingFunction<? super T> mapping) {
    return watches(type, mapping, EventPredicate.always());
  }

  /**
   * Like {@link #watches(Class, MappingFunction)}, with a filter on the watched kind's events.
   *
   * @param <T> the watched kind
   * @param type the watched kind's class
   * @param mapping the primary keys an object of {@code type} concerns
   * @param predicate the filter of the watched kind's events
   * @return this builder
   */
  public <T extends HasMetadata> ControllerBuilder<P> watches(
      Class<T> type, MappingFunction<? super T> mapping, EventPredicate<? super T> predicate) {
    return watchesWith(type, new EnqueueMapped<T>(mapping), predicate);
  }

  /**
   * Reconciles the primaries that reference an object of {@code type} by name in their own
   * namespace (a ConfigMap or Secret their pods use) whenever it changes. {@code references} gives
   * the names a primary references (nulls and blanks are skipped); they are kept in an index on the
   * primary cache, so an event of {@code type} looks its primaries up instead of scanning them all.
   *
   * @param <T> the referenced kind
   * @param type the referenced kind's class
   * @param references the names of the objects of {@code type} a primary references
   * @param predicate the filter of the referenced kind's events
   * @return this builder
   */
  public <T extends HasMetadata> ControllerBuilder<P> watchesReferenced(
      Class<T> type,
      Function<? super P, ? extends Collection<String>> references,
      EventPredicate<? super T> predicate) {
    Objects.requireNonNull(references, "references");
    String index = "converge.dev/references-" + HasMetadata.getKind(type).toLowerCase(Locale.ROOT);
    index(
        primaryType,
        index,
        primary ->
            references.apply(primary).stream()
                .filter(name -> name != null && !name.isBlank())
                .map(
                    name -> Objects.toString(primary.getMetadata().getNamespace(), "") + "/" + name)
                .toList());
    MappingFunction<T> referrers =
        (object, caches) ->
            caches
                .of(primaryType)
                .byIndex(
                    index,
                    Objects.toString(object.getMetadata().getNamespace(), "")
                        + "/"
                        + object.getMetadata().getName())
                .stream()
                .map(ObjectKey::of)
                .toList();
    return watches(type, referrers, predicate);
  }

  /**
   * The general form: any handler, any filter. (Named apart from {@code watches} so that a lambda
   * is never ambiguous between a handler and a mapping function.)
   *
   * @param <T> the watched kind
   * @param type the watched kind's class
   * @param handler turns an event that passed into primary keys
   * @param predicate the filter of the watched kind's events
   * @return this builder
   */
  public <T extends HasMetadata> ControllerBuilder<P> watchesWith(
      Class<T> type, EventHandler<T> handler, EventPredicate<? super T> predicate) {
    Objects.requireNonNull(predicate, "predicate");
    EventPredicate<T> filter = predicate::test;
    watches.add(new WatchDefinition<>(type, filter, handler));
    return this;
  }

  /**
   * Adds a secondary index on the cache of {@code type}, for mapping functions and reconcilers
   * ({@code caches.of(type).byIndex(name, key)}). Index names are per kind and must be unique.
   *
   * @param <R> the indexed kind
   * @param type the indexed kind's class
   * @param name the index's name, unique for the kind
   * @param function the keys each object is indexed under
   * @return this builder
   */
  public <R extends HasMetadata> ControllerBuilder<P> index(
      Class<R> type, String name, IndexFunction<R> function) {
    indexes.add(new IndexDefinition<>(type, name, function));
    return this;
  }

  /**
   * Declares what the reconciler does by hand through {@code context.client()} (a kind it reads
   * without a cache, deletes, or writes without {@code context.apply}), so that the operator's
   * generated RBAC rules grant it and its access checks watch over it. What the definition shows
   * (the watched kinds, the owned kinds' strategy writes, status, finalizers, Events, the Lease)
   * needs no declaration.
   *
   * @param type the kind the reconciler uses
   * @param verbs RBAC verbs such as {@code "get"}, {@code "delete"}
   * @return this builder
   * @throws IllegalArgumentException for a word that is not an RBAC verb
   */
  public ControllerBuilder<P> alsoUses(Class<? extends HasMetadata> type, String... verbs) {
    Objects.requireNonNull(type, "type");
    extraAccess.add(
        AccessRule.on(
            type,
            "",
            List.of(verbs),
            "controller "
                + (name != null ? name : HasMetadata.getKind(primaryType).toLowerCase(Locale.ROOT))
                + ": declared with alsoUses("
                + type.getSimpleName()
                + ".class, ...)"));
    return this;
  }

  /**
   * The controller's name, for logs, metrics and the work queue; default: the kind in lower case.
   * Name two controllers of the same kind apart with it.
   *
   * @param controllerName the name
   * @return this builder
   * @throws IllegalArgumentException when the name is null or blank
   */
  public ControllerBuilder<P> named(String controllerName) {
    if (controllerName == null || controllerName.isBlank()) {
      throw new IllegalArgumentException("a controller name must not be blank");
    }
    this.name = controllerName;
    return this;
  }

  /**
   * How many keys may be reconciled at once; one key is never reconciled twice at once. Default:
   * the operator's {@code OperatorBuilder.workers} (1 unless set).
   *
   * @param max the number of keys reconciled at once, at least 1
   * @return this builder
   * @throws IllegalArgumentException when {@code max} is less than 1
   */
  public ControllerBuilder<P> maxConcurrentReconciles(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("maxConcurrentReconciles must be at least 1, got " + max);
    }
    this.maxConcurrentReconciles = max;
    return this;
  }

  /**
   * Reconciles every primary again {@code interval} after a successful reconcile, even without
   * events: a safety net for drift the watches cannot see. Off by default.
   *
   * @param interval the time after a successful reconcile; positive
   * @return this builder
   * @throws IllegalArgumentException when {@code interval} is zero or negative
   */
  public ControllerBuilder<P> reconcileEvery(Duration interval) {
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException(
          "reconcileEvery needs a positive interval, got " + interval);
    }
    this.reconcileEvery = interval;
    return this;
  }

  /**
   * The retry backoff after failures; default 5 ms doubling to 1000 s.
   *
   * @param retryBackoff the per-key delays of retries
   * @return this builder
   */
  public ControllerBuilder<P> backoff(ExponentialBackoff retryBackoff) {
    this.backoff = Objects.requireNonNull(retryBackoff, "backoff");
    return this;
  }

  /**
   * How long one reconcile of this controller may run before the runtime reports it as hung;
   * default: the operator's ({@code OperatorBuilder.reconcileDeadline}, 5 minutes unless set).
   *
   * <p>A reconcile past its deadline is not stopped (unless {@link #interruptPastDeadline} says
   * so): it is reported once, when the deadline passes, with a WARN line naming the object, how
   * long it has run and its worker's stack; in the metrics ({@code converge.reconcile.hung} now,
   * {@code converge.reconcile.deadline.exceeded} ever); and in {@code Operator.health()}, which
   * names the controller and the object. When it ends at last, an INFO line gives its total time
   * and the report clears. A worker held by one hung reconcile takes no other key, so with the
   * default of one worker a hung call stalls the whole kind: the report is how you learn of it.
   *
   * <p>Choose a deadline well past the longest reconcile that still makes progress, so that a
   * report always means stuck, never slow. Set it longer for a controller that waits on slow
   * external systems on purpose, shorter for one whose reconciles only read caches and write a few
   * objects.
   *
   * @param deadline how long one reconcile may run; positive
   * @return this builder
   * @throws IllegalArgumentException for a deadline that is zero or negative
   */
  public ControllerBuilder<P> reconcileDeadline(Duration deadline) {
    Objects.requireNonNull(deadline, "deadline");
    if (deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("reconcileDeadline must be positive, got " + deadline);
    }
    this.reconcileDeadline = deadline;
    return this;
  }

  /**
   * Also interrupts the worker thread of a reconcile, once, when it runs past its {@link
   * #reconcileDeadline}; off by default.
   *
   * <p>An interrupt ends what waits interruptibly: a fabric8 call waiting for its answer throws a
   * {@code KubernetesClientException} caused by an {@code InterruptedIOException} at once (the HTTP
   * request itself is not cancelled by fabric8: a write already sent may still be applied, its
   * answer is dropped), as do {@code Thread.sleep}, {@code Object.wait}, {@code
   * BlockingQueue.take}, {@code Future.get} and {@code Lock.lockInterruptibly}. The reconcile then
   * fails like any other and its key is retried with backoff. What ignores interrupts (a {@code
   * synchronized} block, blocking socket reads of {@code java.net.Socket}, a busy loop) runs on,
   * and stays reported.
   *
   * <p>It is off by default because an interrupt reaches whatever the thread runs at that moment,
   * and not all code survives it: an interruptible NIO channel (a {@code FileChannel} shared by
   * others) is closed by it, and a library that swallows it, or takes it for a failure of its own,
   * may leave its state half changed. Turn it on for a reconciler whose blocking calls you know to
   * be safe to interrupt, such as fabric8 calls and calls to HTTP clients that honour interrupts.
   * An interrupt the reconcile does not consume is cleared before its worker takes the next key.
   *
   * @return this builder
   */
  public ControllerBuilder<P> interruptPastDeadline() {
    this.interruptPastDeadline = true;
    return this;
  }

  /**
   * Deletes what the primary no longer wants: after a reconcile that ends with {@link
   * dev.converge.reconcile.Result#done()}, every object of an {@link #owns owned} kind that the
   * informer cache holds with this primary as its controller owner (owner reference with {@code
   * controller: true} and the primary's UID) and that the reconcile neither applied ({@code
   * Context.apply}, whether or not it sent a request) nor {@linkplain
   * dev.converge.reconcile.Context#keep kept} is deleted. Off by default.
   *
   * <p>So a child that depends on the spec (a backup CronJob while a schedule is set, a Service per
   * listed port) disappears when the spec stops asking for it, without a hand-written delete and
   * without extra RBAC rules: the operator's generated role gets {@code delete} on the owned kinds.
   *
   * <p>What is never pruned: objects of kinds the controller does not own, or that another object
   * controls (another primary, another controller's primary, an object without the reference);
   * objects already being deleted; objects annotated {@value #PRUNE_ANNOTATION}{@code : "false"};
   * objects the cache does not hold (in a namespace the operator does not watch). And nothing is
   * pruned after a reconcile that threw, asked for a requeue, failed permanently, or in which a
   * write through the context failed (even one the reconciler caught), nor for a primary that is
   * being deleted: a reconcile that did not get through may not have applied all it wants.
   *
   * <p>Each delete carries the UID and resourceVersion the cache holds as preconditions, so an
   * object changed since (annotated to be kept, say) or replaced by another of its name is left
   * alone; its change event reconciles the primary again. The delete's propagation is {@code
   * Background}: the object goes at once and the garbage collector deletes what it owns in turn
   * (the ReplicaSets and Pods of a pruned Deployment), as {@code kubectl delete} does, so the
   * reconcile neither waits nor leaves the dependents orphaned. A delete the API server refuses is
   * handled like a refused write of the reconcile (RBAC's 403 reported as a missing permission; an
   * admission denial as {@code Reconciled=False} on the primary); each pruned object is logged with
   * its primary and counted in {@code converge.children.pruned}.
   *
   * <p>It is off by default because it deletes: a reconciler written before it, one that creates
   * children through {@code context.client()} with a controller reference set by hand, or one that
   * returns {@code done()} early before applying everything (while it waits on something, say)
   * would lose children it still wants. Turn it on for a reconciler whose every {@code done()}
   * follows the application of everything the primary wants; call {@code Context.keep(child)} for a
   * child the reconcile deliberately leaves as it is.
   *
   * @return this builder
   */
  public ControllerBuilder<P> pruneOwned() {
    this.pruneOwned = true;
    return this;
  }

  /**
   * Finishes the description with the reconciler that does the work. The builder may be used again
   * afterwards; the definition does not change with it.
   *
   * @param reconciler what runs for each primary key
   * @return the controller's definition, to pass to {@code OperatorBuilder.controller}
   */
  public ControllerDefinition<P> build(Reconciler<P> reconciler) {
    List<EventPredicate<? super P>> predicates = List.copyOf(primaryPredicates);
    EventPredicate<P> filter = event -> predicates.stream().allMatch(p -> p.test(event));
    List<WatchDefinition<?>> all = new ArrayList<>();
    all.add(new WatchDefinition<>(primaryType, filter, new EnqueueSelf<>()));
    all.addAll(watches);
    String controllerName =
        name != null ? name : HasMetadata.getKind(primaryType).toLowerCase(Locale.ROOT);
    return new ControllerDefinition<>(
        controllerName,
        primaryType,
        all,
        indexes,
        reconciler,
        maxConcurrentReconciles,
        Optional.ofNullable(reconcileEvery),
        backoff,
        extraAccess,
        Optional.ofNullable(reconcileDeadline),
        interruptPastDeadline,
        pruneOwned);
  }
}
