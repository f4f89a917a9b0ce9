package dev.converge.operator.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.builder.ControllerBuilder;
import dev.converge.builder.ControllerDefinition;
import dev.converge.builder.WatchDefinition;
import dev.converge.event.EventRecorder;
import dev.converge.event.EventType;
import dev.converge.metrics.MicrometerControllerMetrics;
import dev.converge.predicate.EventPredicate;
import dev.converge.queue.RateLimit;
import dev.converge.queue.internal.ManualTicker;
import dev.converge.rbac.OperatorPermissions;
import dev.converge.reconcile.ObjectKey;
import dev.converge.reconcile.Reconciler;
import dev.converge.reconcile.Result;
import dev.converge.source.ResourceEvent;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ControllerRuntimeTest {

  private static final ObjectKey WEB = new ObjectKey("ns", "web");

  private final ManualTicker ticker = new ManualTicker();
  private final InMemoryCaches caches = new InMemoryCaches();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final EventRecorder recorder =
      (involved, type, reason, message) ->
          events.add(type + " " + involved.getMetadata().getName() + " " + reason + ": " + message);
  private final MicrometerControllerMetrics metrics = new MicrometerControllerMetrics(registry);
  private final RejectedObjects rejected = new RejectedObjects(metrics);
  private ControllerRuntime<Deployment> runtime;

  @AfterEach
  void stop() {
    if (runtime != null) {
      runtime.stop(Duration.ofSeconds(5));
    }
  }

  private static Deployment deployment(String name, long generation) {
    return deployment(name, generation, "uid-" + name);
  }

  private static Deployment deployment(String name, long generation, String uid) {
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("ns")
        .withUid(uid)
        .withGeneration(generation)
        .withResourceVersion(String.valueOf(generation * 10))
        .endMetadata()
        .build();
  }

  private ControllerRuntime<Deployment> runtime(
      ControllerBuilder<Deployment> builder, Reconciler<Deployment> reconciler) {
    ControllerDefinition<Deployment> definition = builder.named("test").build(reconciler);
    runtime =
        new ControllerRuntime<>(
            definition,
            new RuntimeServices(
                null,
                caches,
                metrics,
                recorder,
                null,
                Optional.empty(),
                "test",
                ticker,
                RateLimit.unlimited(),
                rejected,
                new AccessChecks(
                    null,
                    "test",
                    new OperatorPermissions(List.of(), Optional.empty(), List.of()),
                    Set.of(),
                    metrics,
                    Duration.ZERO)));
    return runtime;
  }

  private ControllerRuntime<Deployment> runtime(Reconciler<Deployment> reconciler) {
    return runtime(ControllerBuilder.forPrimary(Deployment.class), reconciler);
  }

  /** A reconciler that plays back the given results (a null supplier result means throw). */
  private static Reconciler<Deployment> script(AtomicInteger calls, List<Supplier<Result>> steps) {
    Deque<Supplier<Result>> remaining = new ArrayDeque<>(steps);
    return (primary, context) -> {
      calls.incrementAndGet();
      return remaining.isEmpty() ? Result.done() : remaining.poll().get();
    };
  }

  private long count(String result) {
    var timer =
        registry
            .find(MicrometerControllerMetrics.RECONCILE)
            .tag("controller", "test")
            .tag("result", result)
            .timer();
    return timer == null ? 0 : timer.count();
  }

  @Test
  void anErrorThrownByTheReconcilerFailsOnlyThatReconcileAndTheWorkerLivesOn() throws Exception {
    caches.put(deployment("boom", 1));
    caches.put(deployment("fine", 1));
    CountDownLatch fineDone = new CountDownLatch(1);
    CountDownLatch boomRetried = new CountDownLatch(2);
    List<String> threads = new CopyOnWriteArrayList<>();
    ControllerRuntime<Deployment> rt =
        runtime(
            (primary, context) -> {
              threads.add(Thread.currentThread().getName());
              if (primary.getMetadata().getName().equals("boom")) {
                boomRetried.countDown();
                throw new Error("a bug in user code");
              }
              fineDone.countDown();
              return Result.done();
            });
    rt.queue().add(new ObjectKey("ns", "boom"));
    rt.queue().add(new ObjectKey("ns", "fine"));

    rt.startWorkers(); // one worker: the default of maxConcurrentReconciles

    assertThat(fineDone.await(10, TimeUnit.SECONDS))
        .as("the only worker went on to the next key after an Error")
        .isTrue();
    assertThat(rt.queue().failures(new ObjectKey("ns", "boom"))).isEqualTo(1);
    assertThat(count("error")).isEqualTo(1); // recorded before the worker moved on
    ticker.advance(Duration.ofMillis(5)); // the first backoff step
    assertThat(boomRetried.await(10, TimeUnit.SECONDS)).as("the failed key was retried").isTrue();
    assertThat(threads).containsOnly("converge-test-worker-1");
    assertThat(count("success")).isEqualTo(1);
  }

  @Test
  void aReconcilerThatInterruptsItsOwnThreadDoesNotEndTheWorker() throws Exception {
    aReconcilerLeavingTheThreadInterruptedDoesNotEndTheWorker(
        () -> {
          Thread.currentThread().interrupt();
          return Result.done();
        });
  }

  @Test
  void aReconcilerThatThrowsInterruptedExceptionDoesNotEndTheWorker() throws Exception {
    // the runtime re-asserts the interrupt flag of an InterruptedException, as it should
    aReconcilerLeavingTheThreadInterruptedDoesNotEndTheWorker(
        () -> {
          throw sneaky(new InterruptedException("a blocking call in user code was interrupted"));
        });
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> RuntimeException sneaky(Throwable t) throws E {
    throw (E) t;
  }

  private void aReconcilerLeavingTheThreadInterruptedDoesNotEndTheWorker(Supplier<Result> first)
      throws Exception {
    caches.put(deployment("first", 1));
    caches.put(deployment("later", 1));
    CountDownLatch later = new CountDownLatch(1);
    List<Boolean> interruptedAtStart = new CopyOnWriteArrayList<>();
    ControllerRuntime<Deployment> rt =
        runtime(
            (primary, context) -> {
              interruptedAtStart.add(Thread.currentThread().isInterrupted());
              if (primary.getMetadata().getName().equals("first")) {
                return first.get();
              }
              later.countDown();
              return Result.done();
            });
    rt.queue().add(new ObjectKey("ns", "first"));
    rt.startWorkers(); // one worker
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> rt.queue().inFlight() == 0 && !interruptedAtStart.isEmpty());

    rt.queue().add(new ObjectKey("ns", "later")); // arrives after the worker went back to waiting

    assertThat(later.await(10, TimeUnit.SECONDS))
        .as("the only worker still takes work after an interrupted reconcile")
        .isTrue();
    assertThat(interruptedAtStart)
        .as("no reconcile starts with a stale interrupt")
        .containsOnly(false);
    assertThat(rt.workersAlive()).isEqualTo(1);
    assertThat(registry.find(MicrometerControllerMetrics.ALIVE_WORKERS).gauge().value())
        .isEqualTo(1.0);
  }

  @Test
  void aPausedControllerKeepsItsQueueAndStartsAgain() throws Exception {
    caches.put(deployment("web", 1));
    List<String> seen = new CopyOnWriteArrayList<>();
    ControllerRuntime<Deployment> rt =
        runtime(
            (primary, context) -> {
              seen.add(primary.getMetadata().getName());
              return Result.done();
            });
    rt.startWorkers();
    assertThat(rt.pauseWorkers(Duration.ofSeconds(5))).isTrue();
    assertThat(rt.workersAlive()).isZero();
    rt.requeueAll();
    assertThat(rt.queue().depth()).as("queued while paused, not processed").isEqualTo(1);
    rt.startWorkers();
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> seen.contains("web"));
  }

  @Test
  void transientFailuresBackOffAndRequeueAfterResetsTheBackoff() {
    caches.put(deployment("web", 1));
    AtomicInteger calls = new AtomicInteger();
    ControllerRuntime<Deployment> rt =
        runtime(
            script(
                calls,
                List.of(
                    () -> {
                      throw new IllegalStateException("conflict");
                    },
                    () -> {
                      throw new IllegalStateException("conflict again");
                    },
                    () -> Result.requeueAfter(Duration.ofSeconds(30)),
                    Result::done)));
    rt.queue().add(WEB);

    assertThat(rt.processNext()).isTrue();
    assertThat(rt.queue().failures(WEB)).isEqualTo(1);
    assertThat(rt.queue().pendingDelay(WEB)).contains(Duration.ofMillis(5));
    assertThat(rt.processNext()).as("nothing before the backoff ends").isFalse();

    ticker.advance(Duration.ofMillis(5));
    assertThat(rt.processNext()).isTrue();
    assertThat(rt.queue().failures(WEB)).isEqualTo(2);
    assertThat(rt.queue().pendingDelay(WEB)).contains(Duration.ofMillis(10));

    ticker.advance(Duration.ofMillis(10));
    assertThat(rt.processNext()).isTrue();
    assertThat(rt.queue().failures(WEB)).as("requeue-after resets the backoff").isZero();
    assertThat(rt.queue().pendingDelay(WEB)).contains(Duration.ofSeconds(30));

    ticker.advance(Duration.ofSeconds(29));
    assertThat(rt.processNext()).isFalse();
    ticker.advance(Duration.ofSeconds(1));
    assertThat(rt.processNext()).isTrue();
    assertThat(rt.queue().pendingDelay(WEB)).as("done: nothing scheduled").isEmpty();

    assertThat(calls.get()).isEqualTo(4);
    assertThat(count("error")).isEqualTo(2);
    assertThat(count("requeue-after")).isEqualTo(1);
    assertThat(count("success")).isEqualTo(1);
  }

  @Test
  void afterRequeueAfterAFailureStartsBackoffFromTheBeginning() {
    caches.put(deployment("web", 1));
    AtomicInteger calls = new AtomicInteger();
    ControllerRuntime<Deployment> rt =
        runtime(
            script(
                calls,
                List.of(
                    () -> {
                      throw new IllegalStateException("1");
                    },
                    () -> {
                      throw new IllegalStateException("2");
                    },
                    () -> {
                      throw new IllegalStateException("3");
                    },
                    () -> Result.requeueAfter(Duration.ofSeconds(1)),
                    () -> {
                      throw new IllegalStateException("4");
                    })));
    rt.queue().add(WEB);
    rt.processNext();
    ticker.advance(Duration.ofMillis(5));
    rt.processNext();
    ticker.advance(Duration.ofMillis(10));
    rt.processNext();
    assertThat(rt.queue().pendingDelay(WEB)).contains(Duration.ofMillis(20));
    ticker.advance(Duration.ofMillis(20));
    rt.processNext(); // requeue after 1 s
    ticker.advance(Duration.ofSeconds(1));
    rt.processNext(); // fails again
    assertThat(rt.queue().pendingDelay(WEB))
        .as("5 ms again, not 40 ms")
        .contains(Duration.ofMillis(5));
  }

  @Test
  void requeueUsesTheBackoffWithoutCountingAnError() {
    caches.put(deployment("web", 1));
    AtomicInteger calls = new AtomicInteger();
    ControllerRuntime<Deployment> rt = runtime(script(calls, List.of(Result::requeue)));
    rt.queue().add(WEB);
    rt.processNext();
    assertThat(rt.queue().pendingDelay(WEB)).contains(Duration.ofMillis(5));
    assertThat(count("requeue")).isEqualTo(1);
    assertThat(count("error")).isZero();
  }

  @Test
  void permanentFailureEmitsAWarningAndStopsOnlyTheRetries() {
    caches.put(deployment("web", 1));
    AtomicInteger calls = new AtomicInteger();
    ControllerRuntime<Deployment> rt =
        runtime(
            (primary, context) -> {
              calls.incrementAndGet();
              return !primary.getMetadata().getLabels().containsKey("touched")
                  ? Result.permanentFailure(
                      "InvalidSpec", "spec.replicas must be >= 1; set it to 1 or more")
                  : Result.done();
            });
    rt.queue().add(WEB);
    rt.processNext();
    assertThat(calls.get()).isEqualTo(1);
    assertThat(events)
        .containsExactly(
            EventType.WARNING
                + " web InvalidSpec: spec.replicas must be >= 1; set it to 1 or more");
    assertThat(rt.queue().pendingDelay(WEB)).as("no retry scheduled").isEmpty();
    assertThat(rt.queue().failures(WEB)).isZero();
    ticker.advance(Duration.ofHours(1));
    assertThat(rt.processNext()).as("nothing retries it").isFalse();
    assertThat(count("permanent")).isEqualTo(1);

    // A later event, here a change that is not a spec change (or a change of a watched
    // ConfigMap mapped to it), reconciles it again: it may be what fixes it.
    caches.put(
        new DeploymentBuilder(deployment("web", 1))
            .editMetadata()
            .withResourceVersion("11")
            .addToLabels("touched", "yes")
            .endMetadata()
            .build());
    rt.queue().add(WEB);
    rt.processNext();
    assertThat(calls.get()).isEqualTo(2);
    assertThat(count("success")).isEqualTo(1);
  }

  private static KubernetesClientException answer(int code, String reason, String message) {
    return new KubernetesClientException(
        new StatusBuilder().withCode(code).withReason(reason).withMessage(message).build());
  }

  @Test
  void aRefusedWriteEndsTheReconcileWithOneWarningAndOnlyALongSafetyNetRecheck() {
    caches.put(deployment("web", 1));
    AtomicInteger calls = new AtomicInteger();
    ControllerRuntime<Deployment> rt =
        runtime(
            (primary, context) -> {
              calls.incrementAndGet();
              throw new IllegalStateException(
                  "applying the child",
                  answer(
                      422,
                      "Invalid",
                      "Deployment.apps \"web\" is invalid: spec.selector: Invalid value: {}:"
                          + " field is immutable"));
            });
    rt.queue().add(WEB);
    rt.processNext();

    assertThat(calls.get()).isEqualTo(1);
    assertThat(events)
        .singleElement()
        .asString()
        .startsWith(EventType.WARNING + " web Invalid: HTTP 422: ")
        .contains("spec.selector");
    assertThat(rt.queue().failures(WEB)).as("no backoff").isZero();
    assertThat(rt.queue().pendingDelay(WEB))
        .as("only the safety net")
        .contains(StandingFailures.REFUSAL_RECHECK);
    assertThat(count("permanent")).isEqualTo(1);
    assertThat(count("error")).isZero();
    assertThat(
            registry
                .find(MicrometerControllerMetrics.REFUSED)
                .tag("controller", "test")
                .tag("reason", "invalid")
                .counter()
                .count())
        .isEqualTo(1.0);

    ticker.advance(StandingFailures.REFUSAL_RECHECK.minusSeconds(1));
    assertThat(rt.processNext()).as("nothing before the safety net").isFalse();
    ticker.advance(Duration.ofSeconds(1));
    assertThat(rt.processNext()).isTrue();
    assertThat(calls.get()).isEqualTo(2);
    assertThat(rt.queue().pendingDelay(WEB))
        .as("the second recheck of the same generation waits twice as long")
        .contains(StandingFailures.REFUSAL_RECHECK.multipliedBy(2));
  }

  @Test
  void transientFailuresAndRbacRefusalsKeepTheBackoff() {
    caches.put(deployment("web", 1));
    List<RuntimeException> failures =
        List.of(
            answer(409, "Conflict", "the object has been modified"),
            answer(429, "TooManyRequests", "too many requests"),
            answer(500, "InternalError", "etcdserver: request timed out"),
            answer(
                403,
                "Forbidden",
                "deployments.apps \"web\" is forbidden: User \"op\" cannot patch resource"
                    + " \"deployments\" in API group \"apps\" in the namespace \"ns\""));
    AtomicInteger calls = new AtomicInteger();
    ControllerRuntime<Deployment> rt =
        runtime(
            (primary, context) -> {
              throw failures.get(calls.getAndIncrement());
            });
    rt.queue().add(WEB);
    for (int i = 0; i < failures.size(); i++) {
      rt.processNext();
      assertThat(rt.queue().failures(WEB)).as("after %s", failures.get(i)).isEqualTo(i + 1);
      ticker.advance(rt.queue().pendingDelay(WEB).orElseThrow());
    }
    assertThat(calls.get()).isEqualTo(4);
    assertThat(events).isEmpty();
    assertThat(count("error")).isEqualTo(4);
    assertThat(registry.find(MicrometerControllerMetrics.REFUSED).counter()).isNull();
  }

  @Test
  void aPermanentFailureDoesNotStickToARecreatedObjectOfTheSameName() {
    caches.put(deployment("web", 1, "first"));
    AtomicInteger calls = new AtomicInteger();
    ControllerRuntime<Deployment> rt =
        runtime(
            (primary, context) -> {
              calls.incrementAndGet();
              return primary.getMetadata().getUid().equals("first")
                  ? Result.permanentFailure("InvalidSpec", "bad")
                  : Result.done();
            });
    rt.queue().add(WEB);
    rt.processNext();

    // Deleted and created again before the worker saw the deletion: same name, generation 1.
    caches.put(deployment("web", 1, "second"));
    rt.queue().add(WEB);
    rt.processNext();

    assertThat(calls.get()).isEqualTo(2);
    assertThat(count("success")).isEqualTo(1);
  }

  @Test
  void aPrimaryDeletedBeforeProcessingIsDoneWithoutCallingTheReconciler() {
    AtomicInteger calls = new AtomicInteger();
    ControllerRuntime<Deployment> rt = runtime(script(calls, List.of()));
    rt.queue().add(WEB); // enqueued, then deleted before a worker got to it

    assertThat(rt.processNext()).isTrue();
    assertThat(calls.get()).isZero();
    assertThat(rt.queue().failures(WEB)).isZero();
    assertThat(rt.queue().pendingDelay(WEB)).isEmpty();
    assertThat(count("error")).isZero();
  }

  @Test
  void periodicReconcileIsScheduledAfterSuccessWhenConfigured() {
    caches.put(deployment("web", 1));
    AtomicInteger calls = new AtomicInteger();
    ControllerRuntime<Deployment> rt =
        runtime(
            ControllerBuilder.forPrimary(Deployment.class).reconcileEvery(Duration.ofMinutes(10)),
            script(calls, List.of()));
    rt.queue().add(WEB);
    rt.processNext();
    assertThat(rt.queue().pendingDelay(WEB)).contains(Duration.ofMinutes(10));
  }

  @Test
  void periodicReconcileIsOffByDefault() {
    caches.put(deployment("web", 1));
    ControllerRuntime<Deployment> rt = runtime(script(new AtomicInteger(), List.of()));
    rt.queue().add(WEB);
    rt.processNext();
    assertThat(rt.queue().pendingDelay(WEB)).isEmpty();
  }

  @Test
  void primaryPredicatesFilterEventsBeforeTheQueue() {
    ControllerRuntime<Deployment> rt =
        runtime(
            ControllerBuilder.forPrimary(Deployment.class)
                .withPredicate(EventPredicate.generationChanged()),
            script(new AtomicInteger(), List.of()));
    @SuppressWarnings("unchecked")
    WatchDefinition<Deployment> primaryWatch =
        (WatchDefinition<Deployment>) runtimeDefinitionWatch(rt);

    rt.dispatch(
        primaryWatch,
        new ResourceEvent.Updated<>(
            deployment("web", 1),
            new DeploymentBuilder(deployment("web", 1))
                .editMetadata()
                .withResourceVersion("99")
                .endMetadata()
                .build()));
    assertThat(rt.queue().depth()).as("status-only update filtered").isZero();

    rt.dispatch(
        primaryWatch, new ResourceEvent.Updated<>(deployment("web", 1), deployment("web", 2)));
    assertThat(rt.queue().poll()).contains(WEB);
  }

  @Test
  void aThrowingMappingFunctionIsReportedOnceAndOtherObjectsStillFlow() {
    ControllerRuntime<Deployment> rt = runtime(script(new AtomicInteger(), List.of()));
    java.util.concurrent.atomic.AtomicBoolean broken =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    WatchDefinition<Deployment> picky =
        new WatchDefinition<>(
            Deployment.class,
            EventPredicate.always(),
            (event, c) -> {
              if (broken.get() && event.object().getMetadata().getName().equals("bad")) {
                throw new IllegalStateException("mapping bug: spec is null");
              }
              return List.of(ObjectKey.of(event.object()));
            });
    for (int i = 0; i < 3; i++) {
      rt.dispatch(picky, new ResourceEvent.Created<>(deployment("bad", 1)));
    }
    rt.dispatch(picky, new ResourceEvent.Created<>(deployment("good", 1)));

    assertThat(rt.queue().poll()).contains(new ObjectKey("ns", "good"));
    assertThat(rejected.problems())
        .singleElement()
        .asString()
        .contains(
            "Deployment ns/bad",
            "watch of Deployment by controller test",
            "mapping bug: spec is null",
            "the rest of Deployment is unaffected");
    assertThat(
            registry
                .find(MicrometerControllerMetrics.OBJECTS_REJECTED)
                .tag("kind", "Deployment")
                .tag("place", "watch")
                .counter()
                .count())
        .as("reported once, not per event")
        .isEqualTo(1.0);

    broken.set(false); // the object (or the function) was fixed: the report goes away
    rt.dispatch(picky, new ResourceEvent.Updated<>(deployment("bad", 1), deployment("bad", 2)));
    assertThat(rejected.problems()).isEmpty();
  }

  private WatchDefinition<?> runtimeDefinitionWatch(ControllerRuntime<Deployment> rt) {
    return rt.definition().watches().get(0);
  }

  @Test
  void genericEventsPassThroughTheGenericRuleOfPredicates() {
    ControllerRuntime<Deployment> rt =
        runtime(
            ControllerBuilder.forPrimary(Deployment.class)
                .withPredicate(
                    EventPredicate.<Deployment>custom()
                        .onGeneric(d -> d.getMetadata().getName().startsWith("ok"))
                        .build()),
            script(new AtomicInteger(), List.of()));
    assertThat(rt.dispatchGeneric(deployment("ok-1", 1))).isTrue();
    assertThat(rt.dispatchGeneric(deployment("no-1", 1))).isTrue();
    assertThat(rt.queue().poll()).contains(new ObjectKey("ns", "ok-1"));
    assertThat(rt.queue().poll()).isEmpty();
    assertThat(rt.dispatchGeneric(new io.fabric8.kubernetes.api.model.ConfigMap()))
        .as("kind not watched")
        .isFalse();
  }
}
