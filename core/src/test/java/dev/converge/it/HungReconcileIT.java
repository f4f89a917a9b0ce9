package dev.converge.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.converge.builder.ControllerBuilder;
import dev.converge.metrics.MicrometerControllerMetrics;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorHealth;
import dev.converge.reconcile.Context;
import dev.converge.reconcile.Result;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TcpProxy;
import dev.converge.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A reconcile that never returns holds its worker, and with the default of one worker per
 * controller its whole kind waits. Past the controller's deadline the operator says so: health and
 * both probes name the controller and the object, the metrics count it, other controllers go on,
 * and the report clears when the reconcile ends. Every object's progress is judged by what the
 * reconcilers wrote to the API server.
 */
@ExtendWith(LocalClusterExtension.class)
class HungReconcileIT {

  private static final String RECONCILED = "it.converge.dev/reconciled";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withData(Map.of("k", "v"))
        .build();
  }

  private static Secret secret(String name) {
    return new SecretBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withStringData(Map.of("k", "v"))
        .build();
  }

  /** Marks {@code object} reconciled on the API server, through the operator's client. */
  private static <T extends HasMetadata> void markReconciled(Context<T> context, T object) {
    if (object.getMetadata().getAnnotations() != null
        && object.getMetadata().getAnnotations().containsKey(RECONCILED)) {
      return;
    }
    context
        .client()
        .resource(object)
        .edit(
            live -> {
              live.getMetadata().setAnnotations(new java.util.HashMap<>(annotations(live)));
              live.getMetadata().getAnnotations().put(RECONCILED, "true");
              return live;
            });
  }

  private static Map<String, String> annotations(HasMetadata object) {
    Map<String, String> annotations = object.getMetadata().getAnnotations();
    return annotations == null ? Map.of() : annotations;
  }

  private static boolean reconciledOnServer(HasMetadata object) {
    return object != null && annotations(object).containsKey(RECONCILED);
  }

  private static boolean configMapReconciled(KubernetesClient client, String name) {
    return reconciledOnServer(client.configMaps().withName(name).get());
  }

  private static boolean secretReconciled(KubernetesClient client, String name) {
    return reconciledOnServer(client.secrets().withName(name).get());
  }

  private static double gauge(SimpleMeterRegistry registry, String name, String controller) {
    return registry.find(name).tag("controller", controller).gauge().value();
  }

  private static double counter(SimpleMeterRegistry registry, String controller) {
    return registry
        .find(MicrometerControllerMetrics.DEADLINE_EXCEEDED)
        .tag("controller", controller)
        .counter()
        .count();
  }

  private static HttpResponse<String> probe(Operator operator, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + operator.httpPort() + path))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aHungReconcileIsNamedInHealthProbesAndMetricsWhileOtherControllersWorkAndClearsAfter(
      KubernetesClient client, TestNamespace ns) throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (Operator operator =
        Operator.builder(client)
            .name("hung-reconcile-it")
            .namespace(ns.name())
            .meterRegistry(registry)
            .controller(
                ControllerBuilder.forPrimary(ConfigMap.class)
                    .named("configmaps")
                    .reconcileDeadline(Duration.ofSeconds(5))
                    .build(
                        (cm, context) -> {
                          if (cm.getMetadata().getName().equals("stuck")) {
                            entered.countDown();
                            // Stands for a call that never returns (no timeout, a lock).
                            if (!release.await(5, TimeUnit.MINUTES)) {
                              throw new IllegalStateException("the test never released it");
                            }
                          }
                          if (!cm.getMetadata().getName().equals("kube-root-ca.crt")) {
                            markReconciled(context, cm);
                          }
                          return Result.done();
                        }))
            .controller(
                ControllerBuilder.forPrimary(Secret.class)
                    .named("secrets")
                    .build(
                        (s, context) -> {
                          markReconciled(context, s);
                          return Result.done();
                        }))
            .httpPort(0)
            .build()) {
      operator.start();
      client.resource(configMap("stuck")).create();
      assertThat(entered.await(60, TimeUnit.SECONDS)).as("the stuck reconcile began").isTrue();
      client.resource(configMap("waiting")).create();

      String named = "controller configmaps: the reconcile of ConfigMap " + ns.name() + "/stuck";
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> operator.health().problems().stream().anyMatch(p -> p.startsWith(named)));
      OperatorHealth health = operator.health();
      assertThat(health.problems())
          .anySatisfy(p -> assertThat(p).startsWith(named).contains("past its deadline of 5.0 s"))
          .anySatisfy(
              p ->
                  assertThat(p)
                      .isEqualTo(
                          "controller configmaps: all 1 worker(s) are held by hung reconciles; no"
                              + " other ConfigMap is reconciled until one ends"));
      assertThat(health.live()).as("by default a hung reconcile is reported, not fatal").isTrue();
      assertThat(health.ready()).isTrue();
      for (String path : new String[] {"/healthz", "/readyz"}) {
        HttpResponse<String> response = probe(operator, path);
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        assertThat(response.body()).as(path).contains("problem: " + named);
      }
      assertThat(gauge(registry, MicrometerControllerMetrics.RECONCILES_HUNG, "configmaps"))
          .isEqualTo(1.0);
      assertThat(counter(registry, "configmaps")).isEqualTo(1.0);
      assertThat(gauge(registry, MicrometerControllerMetrics.RECONCILES_HUNG, "secrets")).isZero();

      // Another controller works on meanwhile, seen on the API server.
      client.resource(secret("fine")).create();
      await().atMost(Duration.ofSeconds(60)).until(() -> secretReconciled(client, "fine"));
      // The hung controller's only worker is held: its other object waits, as health said.
      assertThat(configMapReconciled(client, "waiting")).isFalse();

      release.countDown();
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> configMapReconciled(client, "stuck") && configMapReconciled(client, "waiting"));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> operator.health().problems().stream().noneMatch(p -> p.contains("hung")));
      assertThat(operator.health().problems()).noneMatch(p -> p.contains("/stuck"));
      assertThat(probe(operator, "/healthz").body()).doesNotContain("/stuck");
      assertThat(gauge(registry, MicrometerControllerMetrics.RECONCILES_HUNG, "configmaps"))
          .isZero();
      assertThat(counter(registry, "configmaps")).as("it ever hung: once").isEqualTo(1.0);
    } finally {
      release.countDown();
    }
  }

  @Test
  void withHungReconcileFailsLivenessTheLivenessProbeFailsUntilTheReconcileEnds(
      KubernetesClient client, TestNamespace ns) throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (Operator operator =
        Operator.builder(client)
            .name("hung-reconcile-it")
            .namespace(ns.name())
            .hungReconcileFailsLiveness(true)
            .reconcileDeadline(Duration.ofSeconds(2)) // the operator-wide default
            .controller(
                ControllerBuilder.forPrimary(ConfigMap.class)
                    .named("configmaps")
                    .build(
                        (cm, context) -> {
                          if (cm.getMetadata().getName().equals("stuck")
                              && !release.await(5, TimeUnit.MINUTES)) {
                            throw new IllegalStateException("the test never released it");
                          }
                          return Result.done();
                        }))
            .httpPort(0)
            .build()) {
      operator.start();
      await().atMost(Duration.ofSeconds(60)).until(() -> operator.health().ready());
      assertThat(probe(operator, "/healthz").statusCode()).isEqualTo(200);

      client.resource(configMap("stuck")).create();
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> probe(operator, "/healthz").statusCode() == 503);
      assertThat(probe(operator, "/healthz").body())
          .contains(
              "not ok",
              "problem: controller configmaps: the reconcile of ConfigMap "
                  + ns.name()
                  + "/stuck has run for",
              "past its deadline of 2.0 s");
      assertThat(probe(operator, "/readyz").statusCode())
          .as("not live, and so not ready either")
          .isEqualTo(503);

      release.countDown();
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> probe(operator, "/healthz").statusCode() == 200);
      assertThat(operator.health().problems()).isEmpty();
    } finally {
      release.countDown();
    }
  }

  @Test
  void interruptPastDeadlineFreesAWorkerHeldByAStalledApiServerCall(
      KubernetesClient client, TestNamespace ns, LocalCluster cluster) throws Exception {
    assumeTrue(cluster.faults().isPresent(), "needs the local control plane to stall a call");
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (TcpProxy proxy = cluster.faults().orElseThrow().proxyToApiServer();
        // Timeouts far past the test: only the interrupt can end a stalled call early.
        KubernetesClient stalling =
            new KubernetesClientBuilder()
                .withConfig(
                    new ConfigBuilder(cluster.configVia(proxy))
                        .withNamespace(ns.name())
                        .withRequestTimeout((int) Duration.ofMinutes(10).toMillis())
                        .withConnectionTimeout((int) Duration.ofMinutes(10).toMillis())
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build();
        Operator operator =
            Operator.builder(client)
                .name("hung-reconcile-it")
                .namespace(ns.name())
                .meterRegistry(registry)
                .controller(
                    ControllerBuilder.forPrimary(ConfigMap.class)
                        .named("configmaps")
                        .reconcileDeadline(Duration.ofSeconds(2))
                        .interruptPastDeadline()
                        .build(
                            (cm, context) -> {
                              String name = cm.getMetadata().getName();
                              if (name.equals("kube-root-ca.crt")) {
                                return Result.done();
                              }
                              if (name.equals("stuck")) {
                                // a read of an external system; here the API server, stalled
                                if (stalling.configMaps().withName("waiting").get() == null) {
                                  throw new IllegalStateException("ConfigMap waiting not there");
                                }
                              }
                              markReconciled(context, cm);
                              return Result.done();
                            }))
                .build()) {
      proxy.stall();
      operator.start();
      client.resource(configMap("stuck")).create();
      await().atMost(Duration.ofSeconds(60)).until(() -> counter(registry, "configmaps") >= 1.0);
      client.resource(configMap("waiting")).create();

      // One worker, and the stalled call would hold it for 10 minutes: only the interrupt lets
      // the other object through while the proxy still stalls.
      await().atMost(Duration.ofSeconds(60)).until(() -> configMapReconciled(client, "waiting"));
      assertThat(proxy.mode()).isEqualTo(TcpProxy.Mode.STALLED);
      assertThat(configMapReconciled(client, "stuck")).isFalse();
      assertThat(
              registry
                  .find(MicrometerControllerMetrics.RECONCILE)
                  .tag("controller", "configmaps")
                  .tag("result", "error")
                  .timer()
                  .count())
          .as("each interrupted reconcile failed, to be retried")
          .isGreaterThanOrEqualTo(1);

      proxy.heal();
      await().atMost(Duration.ofMinutes(2)).until(() -> configMapReconciled(client, "stuck"));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> operator.health().problems().stream().noneMatch(p -> p.contains("/stuck")));
      assertThat(gauge(registry, MicrometerControllerMetrics.RECONCILES_HUNG, "configmaps"))
          .isZero();
    }
  }
}
