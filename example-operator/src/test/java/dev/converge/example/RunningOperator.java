package dev.converge.example;

import com.google.inject.Guice;
import dev.converge.example.api.AppDeploymentCrd;
import dev.converge.example.controller.AppDeploymentController;
import dev.converge.metrics.MicrometerControllerMetrics;
import dev.converge.operator.Operator;
import dev.converge.testing.LocalCluster;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The AppDeployment operator running in the test JVM against the local cluster, watching one
 * namespace, on a client of its own whose write requests are recorded.
 */
final class RunningOperator implements AutoCloseable {

  private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");
  private static final AtomicBoolean CRD_INSTALLED = new AtomicBoolean();

  private final KubernetesClient client;
  private final Operator operator;
  private final SimpleMeterRegistry registry;
  private final ConcurrentLinkedQueue<String> writes;

  private RunningOperator(KubernetesClient client, Operator operator, SimpleMeterRegistry registry,
      ConcurrentLinkedQueue<String> writes) {
    this.client = client;
    this.operator = operator;
    this.registry = registry;
    this.writes = writes;
  }

  /** Installs the CRD once per JVM, with the administrator client. */
  static void installCrd(LocalCluster cluster) {
    if (CRD_INSTALLED.get()) {
      return;
    }
    try (KubernetesClient admin = cluster.newClient()) {
      AppDeploymentCrd.install(admin, Duration.ofSeconds(30));
    }
    CRD_INSTALLED.set(true);
  }

  /** The operator as cluster administrator. */
  static RunningOperator start(LocalCluster cluster, OperatorSettings settings) {
    return start(cluster, settings, null);
  }

  /**
   * The operator authenticated as the administrator but authorized as {@code user} in
   * {@code groups} (impersonation): the RBAC rules of that user are what it may do.
   */
  static RunningOperator start(LocalCluster cluster, OperatorSettings settings, String user,
      String... groups) {
    installCrd(cluster);
    ConcurrentLinkedQueue<String> writes = new ConcurrentLinkedQueue<>();
    Interceptor recorder = new Interceptor() {
      @Override
      public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        if (WRITES.contains(request.method())) {
          writes.add(request.method() + " " + request.uri().getPath());
        }
      }
    };
    ConfigBuilder config = new ConfigBuilder(cluster.config());
    if (user != null) {
      config.withImpersonateUsername(user).withImpersonateGroups(groups);
    }
    KubernetesClient client = new KubernetesClientBuilder()
        .withConfig(OperatorSettings.identify(config.build()))
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("count-writes", recorder))
        .build();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Operator operator = Guice.createInjector(new AppOperatorModule(client, settings, registry))
        .getInstance(Operator.class);
    operator.start();
    if (!operator.awaitCachesSynced(Duration.ofSeconds(30))) {
      operator.stop();
      client.close();
      throw new IllegalStateException("the operator's caches did not sync within 30 s: "
          + operator.health().problems());
    }
    return new RunningOperator(client, operator, registry, writes);
  }

  /** Reconciles run so far by the AppDeployment controller, whatever their outcome. */
  long reconciles() {
    return registry.find(MicrometerControllerMetrics.RECONCILE)
        .tag("controller", AppDeploymentController.NAME)
        .timers().stream().mapToLong(Timer::count).sum();
  }

  /** Write requests (method and path) this operator's client has sent so far. */
  List<String> writes() {
    return List.copyOf(writes);
  }

  Operator operator() {
    return operator;
  }

  @Override
  public void close() {
    operator.stop(Duration.ofSeconds(10));
    client.close();
  }
}
