package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.converge.builder.ControllerBuilder;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorState;
import dev.converge.predicate.EventPredicate;
import dev.converge.reconcile.Result;
import dev.converge.status.ConditionStatus;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Graceful shutdown: the operator stops taking work, lets a running reconcile finish (including its
 * writes), and only then stops; a reconcile that outlives the timeout is interrupted and reported.
 */
@ExtendWith(LocalClusterExtension.class)
class GracefulShutdownIT {

  @Group("shutdown.it.converge.dev")
  @Version("v1")
  public static class ShutdownWidget extends CustomResource<WidgetSpec, WidgetStatus>
      implements Namespaced {}

  @BeforeAll
  static void installCrd(LocalCluster cluster) {
    TestCrds.install(cluster, ShutdownWidget.class);
  }

  private static ShutdownWidget widget(String name) {
    ShutdownWidget w = new ShutdownWidget();
    w.getMetadata().setName(name);
    w.setSpec(new WidgetSpec());
    return w;
  }

  @Test
  void stopWaitsForTheRunningReconcileAndTakesNoNewWork(KubernetesClient client, TestNamespace ns)
      throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger reconciles = new AtomicInteger();
    Operator operator =
        Operator.builder(client)
            .name("shutdown-it")
            .namespace(ns.name())
            .controller(
                ControllerBuilder.forPrimary(ShutdownWidget.class)
                    .withPredicate(EventPredicate.generationChanged())
                    .maxConcurrentReconciles(2)
                    .build(
                        (widget, context) -> {
                          reconciles.incrementAndGet();
                          if (widget.getMetadata().getName().equals("slow")) {
                            started.countDown();
                            // Stands for a long call to something external.
                            if (!release.await(60, TimeUnit.SECONDS)) {
                              throw new IllegalStateException("test never released the reconcile");
                            }
                          }
                          Widgets.setReady(
                              context, widget, ConditionStatus.TRUE, "Reconciled", "done");
                          return Result.done();
                        }))
            .build();
    operator.start();
    client.resource(widget("slow")).create();
    assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();

    CompletableFuture<Boolean> stopping = CompletableFuture.supplyAsync(() -> operator.stop());
    await().atMost(Duration.ofSeconds(10)).until(() -> operator.state() == OperatorState.STOPPED);
    // New work is not taken while the running reconcile finishes.
    client.resource(widget("late")).create();
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Duration.ofSeconds(3))
        .until(() -> !stopping.isDone());
    assertThat(reconciles.get()).isEqualTo(1);

    release.countDown();

    assertThat(stopping.get(30, TimeUnit.SECONDS)).as("stopped cleanly").isTrue();
    assertThat(Widgets.isReady(client.resources(ShutdownWidget.class).withName("slow").get()))
        .as("the in-flight reconcile completed its status write")
        .isTrue();
    assertThat(reconciles.get()).as("'late' was never reconciled").isEqualTo(1);
    assertThat(Widgets.ready(client.resources(ShutdownWidget.class).withName("late").get()))
        .isEmpty();
  }

  @Test
  void aReconcileOutlivingTheTimeoutIsInterrupted(KubernetesClient client, TestNamespace ns)
      throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    Operator operator =
        Operator.builder(client)
            .name("shutdown-it")
            .namespace(ns.name())
            .shutdownTimeout(Duration.ofMillis(500))
            .controller(
                ControllerBuilder.forPrimary(ShutdownWidget.class)
                    .build(
                        (widget, context) -> {
                          started.countDown();
                          try {
                            new CountDownLatch(1).await(60, TimeUnit.SECONDS);
                          } catch (InterruptedException e) {
                            interrupted.set(true);
                            throw e;
                          }
                          return Result.done();
                        }))
            .build();
    operator.start();
    client.resource(widget("stuck")).create();
    assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();

    assertThat(operator.stop()).as("reports that a reconcile did not finish").isFalse();
    await().atMost(Duration.ofSeconds(10)).untilTrue(interrupted);
  }
}
