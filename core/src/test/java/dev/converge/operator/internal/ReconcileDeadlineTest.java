package dev.converge.operator.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.builder.ControllerDefinition;
import dev.converge.event.EventRecorder;
import dev.converge.metrics.MicrometerControllerMetrics;
import dev.converge.operator.OperatorBuilder;
import dev.converge.queue.RateLimit;
import dev.converge.queue.internal.ManualTicker;
import dev.converge.rbac.OperatorPermissions;
import dev.converge.reconcile.ObjectKey;
import dev.converge.reconcile.Reconciler;
import dev.converge.reconcile.Result;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The reconcile deadline on a manual clock: a reconcile is reported hung exactly when its deadline
 * has passed, once however often the watchdog looks, with its object and its worker's stack, and
 * the report clears when it ends. The log is read from standard error, where the tests' SLF4J
 * binding writes it.
 */
class ReconcileDeadlineTest {

  private static final ObjectKey STUCK = new ObjectKey("ns", "stuck");

  private final ManualTicker ticker = new ManualTicker();
  private final InMemoryCaches caches = new InMemoryCaches();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final MicrometerControllerMetrics metrics = new MicrometerControllerMetrics(registry);
  private final EventRecorder recorder = (involved, type, reason, message) -> {};
  private final ByteArrayOutputStream log = new ByteArrayOutputStream();
  private final CountDownLatch release = new CountDownLatch(1);
  private PrintStream stderr;
  private ControllerRuntime<Deployment> runtime;

  @BeforeEach
  void captureLog() {
    stderr = System.err;
    System.setErr(new PrintStream(new TeeStream(log, stderr), true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    release.countDown();
    if (runtime != null) {
      runtime.stop(Duration.ofSeconds(5));
    }
    System.setErr(stderr);
  }

  /** Writes to the capture and on to the real standard error. */
  private static final class TeeStream extends java.io.OutputStream {
    private final ByteArrayOutputStream capture;
    private final PrintStream through;

    TeeStream(ByteArrayOutputStream capture, PrintStream through) {
      this.capture = capture;
      this.through = through;
    }

    @Override
    public synchronized void write(int b) {
      capture.write(b);
      through.write(b);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      capture.write(b, off, len);
      through.write(b, off, len);
    }
  }

  private synchronized String logged() {
    return log.toString(StandardCharsets.UTF_8);
  }

  private static int occurrences(String text, String part) {
    int count = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      count++;
    }
    return count;
  }

  private static Deployment deployment(String name) {
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("ns")
        .withUid("uid-" + name)
        .withGeneration(1L)
        .withResourceVersion("10")
        .endMetadata()
        .build();
  }

  private ControllerRuntime<Deployment> runtime(
      ControllerBuilder<Deployment> builder,
      Duration operatorDefault,
      Reconciler<Deployment> reconciler) {
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
                new RejectedObjects(metrics),
                new AccessChecks(
                    null,
                    "test",
                    new OperatorPermissions(List.of(), Optional.empty(), List.of()),
                    Set.of(),
                    metrics,
                    Duration.ZERO)),
            operatorDefault);
    return runtime;
  }

  private double hungGauge() {
    return registry
        .find(MicrometerControllerMetrics.RECONCILES_HUNG)
        .tag("controller", "test")
        .gauge()
        .value();
  }

  private double exceededCounter() {
    return registry
        .find(MicrometerControllerMetrics.DEADLINE_EXCEEDED)
        .tag("controller", "test")
        .counter()
        .count();
  }

  /**
   * Waits until the worker named {@code name} waits on the latch: the stack the runtime takes must
   * show the call it is blocked in, not the moment before it.
   */
  private static void awaitBlocked(String name) {
    await("worker " + name + " blocked")
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(
                        t -> t.getName().equals(name) && t.getState() == Thread.State.WAITING));
  }

  /** Blocks on {@link #release} for "stuck", noting whether it was interrupted. */
  private Reconciler<Deployment> blockingOnStuck(CountDownLatch entered, List<String> interrupted) {
    return (primary, context) -> {
      if (primary.getMetadata().getName().equals("stuck")) {
        entered.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          interrupted.add(primary.getMetadata().getName());
          throw e;
        }
      }
      return Result.done();
    };
  }

  @Test
  void aReconcilePastItsDeadlineIsReportedOnceWithItsObjectAndStackAndClearedWhenItEnds()
      throws Exception {
    caches.put(deployment("stuck"));
    CountDownLatch entered = new CountDownLatch(1);
    List<String> interrupted = new CopyOnWriteArrayList<>();
    ControllerRuntime<Deployment> rt =
        runtime(
            ControllerBuilder.forPrimary(Deployment.class)
                .reconcileDeadline(Duration.ofSeconds(10)),
            OperatorBuilder.DEFAULT_RECONCILE_DEADLINE,
            blockingOnStuck(entered, interrupted));
    rt.queue().add(STUCK);
    rt.startWorkers(); // one worker
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    awaitBlocked("converge-test-worker-1");
    assertThat(hungGauge()).isZero();
    assertThat(exceededCounter()).as("registered at 0 before anything hangs").isZero();

    ticker.advance(Duration.ofSeconds(9));
    rt.checkDeadlines();
    assertThat(rt.hungReconciles()).as("9 s into a 10 s deadline").isEmpty();
    assertThat(hungGauge()).isZero();

    ticker.advance(Duration.ofSeconds(2));
    rt.checkDeadlines();
    assertThat(rt.hungReconciles())
        .containsExactly(
            "controller test: the reconcile of Deployment ns/stuck has run for 11.0 s, past its"
                + " deadline of 10.0 s, on worker converge-test-worker-1",
            "controller test: all 1 worker(s) are held by hung reconciles; no other Deployment"
                + " is reconciled until one ends");
    assertThat(hungGauge()).isEqualTo(1.0);
    assertThat(exceededCounter()).isEqualTo(1.0);
    String warned = logged();
    assertThat(warned)
        .contains(
            "WARN",
            "controller test: the reconcile of Deployment ns/stuck has run for 11.0 s, past its"
                + " deadline of 10.0 s; it is left running",
            "Its worker converge-test-worker-1 takes no other key meanwhile (1 worker(s) in all)",
            "stack of worker converge-test-worker-1 when the deadline passed",
            // the worker's own stack, not the watchdog's: where the reconciler waits
            "java.util.concurrent.CountDownLatch.await",
            ReconcileDeadlineTest.class.getName() + ".lambda$blockingOnStuck$");

    ticker.advance(Duration.ofSeconds(30));
    rt.checkDeadlines();
    rt.checkDeadlines();
    assertThat(occurrences(logged(), "past its deadline of 10.0 s; it is left running"))
        .as("reported once per hung reconcile, however often it is checked")
        .isEqualTo(1);
    assertThat(exceededCounter()).isEqualTo(1.0);
    assertThat(rt.hungReconciles().get(0)).contains("has run for 41.0 s");

    release.countDown();
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(logged())
                    .contains(
                        "controller test: the reconcile of Deployment ns/stuck that ran past its"
                            + " deadline of 10.0 s ended after 41.0 s; no longer reported as"
                            + " hung"));
    assertThat(rt.hungReconciles()).isEmpty();
    assertThat(hungGauge()).isZero();
    assertThat(exceededCounter()).as("a count of every reconcile that ever hung").isEqualTo(1.0);
    assertThat(interrupted).as("left running: never interrupted by default").isEmpty();
  }

  @Test
  void aFreshReconcileOfTheSameObjectIsNotReportedForTheOldOne() throws Exception {
    caches.put(deployment("stuck"));
    CountDownLatch entered = new CountDownLatch(1);
    ControllerRuntime<Deployment> rt =
        runtime(
            ControllerBuilder.forPrimary(Deployment.class),
            Duration.ofSeconds(10),
            blockingOnStuck(entered, new CopyOnWriteArrayList<>()));
    rt.queue().add(STUCK);
    rt.startWorkers();
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    awaitBlocked("converge-test-worker-1");
    ticker.advance(Duration.ofSeconds(11));
    rt.checkDeadlines();
    assertThat(rt.hungCount()).as("the operator's default deadline applies").isEqualTo(1);
    release.countDown();
    await().atMost(Duration.ofSeconds(30)).until(() -> rt.queue().inFlight() == 0);

    rt.queue().add(STUCK); // ends at once now
    await().atMost(Duration.ofSeconds(30)).until(() -> rt.queue().inFlight() == 0);
    rt.checkDeadlines();
    assertThat(rt.hungReconciles()).isEmpty();
    assertThat(exceededCounter()).isEqualTo(1.0);
  }

  @Test
  void withInterruptPastDeadlineTheReconcileIsInterruptedFailsAndIsRetriedOnACleanWorker()
      throws Exception {
    caches.put(deployment("stuck"));
    caches.put(deployment("next"));
    CountDownLatch entered = new CountDownLatch(1);
    List<String> interrupted = new CopyOnWriteArrayList<>();
    List<String> interruptedAtStart = new CopyOnWriteArrayList<>();
    List<String> reconciled = new CopyOnWriteArrayList<>();
    Reconciler<Deployment> blocking = blockingOnStuck(entered, interrupted);
    ControllerRuntime<Deployment> rt =
        runtime(
            ControllerBuilder.forPrimary(Deployment.class)
                .reconcileDeadline(Duration.ofSeconds(10))
                .interruptPastDeadline(),
            OperatorBuilder.DEFAULT_RECONCILE_DEADLINE,
            (primary, context) -> {
              if (Thread.currentThread().isInterrupted()) {
                interruptedAtStart.add(primary.getMetadata().getName());
              }
              reconciled.add(primary.getMetadata().getName());
              return blocking.reconcile(primary, context);
            });
    rt.queue().add(STUCK);
    rt.startWorkers();
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    awaitBlocked("converge-test-worker-1");

    ticker.advance(Duration.ofSeconds(11));
    rt.checkDeadlines();
    await().atMost(Duration.ofSeconds(30)).until(() -> rt.queue().inFlight() == 0);
    assertThat(interrupted).containsExactly("stuck");
    assertThat(logged())
        .contains(
            "controller test: the reconcile of Deployment ns/stuck has run for 11.0 s, past its"
                + " deadline of 10.0 s; interrupting it",
            "that ran past its deadline of 10.0 s ended after 11.0 s");
    assertThat(rt.queue().failures(STUCK)).as("failed, so retried with backoff").isEqualTo(1);
    assertThat(rt.hungReconciles()).isEmpty();
    assertThat(exceededCounter()).isEqualTo(1.0);

    rt.queue().add(new ObjectKey("ns", "next"));
    release.countDown(); // the retry of "stuck" now ends at once
    ticker.advance(Duration.ofSeconds(1)); // past the first backoff step
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> reconciled.contains("next") && reconciled.size() == 3);
    assertThat(interruptedAtStart).as("the interrupt reached no later reconcile").isEmpty();
    assertThat(rt.workersAlive()).isEqualTo(1);
  }

  @Test
  void theWatchdogLooksAFewTimesPerDeadlineAtMostOnceASecond() {
    ControllerRuntime<Deployment> fiveMinutes =
        runtime(
            ControllerBuilder.forPrimary(Deployment.class),
            OperatorBuilder.DEFAULT_RECONCILE_DEADLINE,
            (p, c) -> Result.done());
    ControllerRuntime<Deployment> twoHundredMillis =
        runtime(
            ControllerBuilder.forPrimary(Deployment.class)
                .reconcileDeadline(Duration.ofMillis(200)),
            OperatorBuilder.DEFAULT_RECONCILE_DEADLINE,
            (p, c) -> Result.done());
    ControllerRuntime<Deployment> tenMillis =
        runtime(
            ControllerBuilder.forPrimary(Deployment.class).reconcileDeadline(Duration.ofMillis(10)),
            OperatorBuilder.DEFAULT_RECONCILE_DEADLINE,
            (p, c) -> Result.done());
    assertThat(fiveMinutes.deadline()).isEqualTo(Duration.ofMinutes(5));
    assertThat(new HungReconcileWatchdog("op", List.of(fiveMinutes)).period())
        .isEqualTo(Duration.ofSeconds(1));
    assertThat(new HungReconcileWatchdog("op", List.of(fiveMinutes, twoHundredMillis)).period())
        .isEqualTo(Duration.ofMillis(50));
    assertThat(new HungReconcileWatchdog("op", List.of(tenMillis)).period())
        .isEqualTo(Duration.ofMillis(20));
  }
}
