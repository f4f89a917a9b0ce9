package dev.converge.testing.operator;

import static org.awaitility.Awaitility.await;

import dev.converge.client.Clients;
import dev.converge.metrics.MicrometerControllerMetrics;
import dev.converge.operator.DryRunReport;
import dev.converge.operator.Operator;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.operator.internal.WriteRecorder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Your operator running inside an integration test, against the local cluster, in one call:
 *
 * <pre>{@code
 * try (RunningOperator operator = RunningOperator.on(cluster)
 *     .userAgent("widget-operator/test").crds(Widget.class).namespace(ns.name())
 *     .start((client, meters) -> WidgetOperator.build(client, meters, ns.name()))) {
 *   admin.resource(widget).create();
 *   await().untilAsserted(() -> ...);
 * }
 * }</pre>
 *
 * <p>{@link RunningOperatorBuilder#start} installs the CRDs (once per JVM), gives the operator a
 * client of its own (its own user agent, optionally impersonating a ServiceAccount, every write
 * request recorded), builds it with your factory, starts it and waits for its caches. {@link
 * #close()} first deletes the objects of the custom resource kinds that still carry finalizers and
 * waits, with the operator still running, until they are gone, so the test namespace never hangs in
 * {@code Terminating}; then it stops the operator and closes its client.
 */
public final class RunningOperator implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RunningOperator.class);

  private final RunningOperatorBuilder settings;
  private final KubernetesClient client;
  private final Operator operator;
  private final SimpleMeterRegistry meters;
  private final WriteRecorder recorder;

  private RunningOperator(
      RunningOperatorBuilder settings,
      KubernetesClient client,
      Operator operator,
      SimpleMeterRegistry meters,
      WriteRecorder recorder) {
    this.settings = settings;
    this.client = client;
    this.operator = operator;
    this.meters = meters;
    this.recorder = recorder;
  }

  /**
   * Starts describing the operator to run on {@code cluster}.
   *
   * @param cluster the local cluster of the test, from {@code LocalClusterExtension}
   * @return a builder whose {@link RunningOperatorBuilder#start} runs the operator
   */
  public static RunningOperatorBuilder on(LocalCluster cluster) {
    return new RunningOperatorBuilder(cluster);
  }

  static RunningOperator start(RunningOperatorBuilder settings, OperatorFactory factory) {
    WriteRecorder recorder = new WriteRecorder();
    KubernetesClient client = prepare(settings, recorder);
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    Operator operator;
    try {
      operator = build(factory, client, meters);
      operator.start();
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
    if (!operator.awaitCachesSynced(settings.cachesSyncTimeout)) {
      operator.stop(settings.stopTimeout);
      client.close();
      throw new IllegalStateException(
          "the caches of operator "
              + operator.name()
              + " did not sync"
              + " within "
              + settings.cachesSyncTimeout
              + ": "
              + operator.health().problems()
              + "; check that its RBAC rules allow list and watch of every kind it watches");
    }
    return new RunningOperator(settings, client, operator, meters, recorder);
  }

  static DryRunReport dryRunPass(RunningOperatorBuilder settings, OperatorFactory factory) {
    KubernetesClient client = prepare(settings, new WriteRecorder());
    try {
      Operator operator = build(factory, client, new SimpleMeterRegistry());
      if (!operator.isDryRun()) {
        operator.stop(Duration.ZERO);
        throw new IllegalArgumentException(
            "the OperatorFactory built operator "
                + operator.name()
                + " for a real run; build it with OperatorBuilder.dryRun(true) for a dry-run"
                + " pass");
      }
      return operator.dryRunPass(settings.passTimeout);
    } finally {
      client.close();
    }
  }

  /** Installs the CRDs and makes the operator's client. */
  private static KubernetesClient prepare(RunningOperatorBuilder settings, WriteRecorder recorder) {
    if (!settings.crdClasses.isEmpty()) {
      TestCrds.installOnce(settings.cluster, settings.crdClasses.toArray(Class<?>[]::new));
    }
    if (!settings.crdFiles.isEmpty()) {
      TestCrds.installOnce(settings.cluster, settings.crdFiles.toArray(java.nio.file.Path[]::new));
    }
    ConfigBuilder config = new ConfigBuilder(settings.cluster.config());
    if (settings.user != null) {
      config
          .withImpersonateUsername(settings.user)
          .withImpersonateGroups(settings.groups.toArray(String[]::new));
    }
    config.withUserAgent(settings.userAgent);
    return Clients.builder()
        .withConfig(config.build())
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor(WriteRecorder.NAME, recorder))
        .build();
  }

  /** The operator {@code factory} builds, not started; the client is closed if it fails. */
  private static Operator build(
      OperatorFactory factory, KubernetesClient client, MeterRegistry meters) {
    Operator operator;
    try {
      operator = factory.create(client, meters);
    } catch (Exception e) {
      client.close();
      if (e instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException("the operator under test could not be built: " + e, e);
    }
    if (operator == null) {
      client.close();
      throw new IllegalStateException(
          "the OperatorFactory returned null; return the operator"
              + " built on the client it was given, not yet started");
    }
    return operator;
  }

  /**
   * The operator's own client (its user agent, its identity, its writes recorded). Tests act as
   * users with a client of their own, not this one.
   *
   * @return the client the operator was built on; closed by {@link #close()}
   */
  public KubernetesClient client() {
    return client;
  }

  /**
   * The operator under test, started, for its health, its name or a generic event.
   *
   * @return the running operator
   */
  public Operator operator() {
    return operator;
  }

  /**
   * The registry given to the {@link OperatorFactory}, for assertions on the operator's meters.
   *
   * @return the registry
   */
  public MeterRegistry meters() {
    return meters;
  }

  /**
   * Write requests (method and path) the operator's client has sent so far, in order: what a test
   * reads to show that a steady state sends nothing.
   *
   * @return a snapshot of the writes; empty when there were none
   */
  public List<String> writes() {
    return recorder.writes();
  }

  /**
   * Reconciles run so far by {@code controller}, whatever their outcome (from the {@code
   * converge.reconcile} timer; the operator must use {@link #meters()}).
   *
   * @param controller the controller's name
   * @return the number of reconciles; 0 for a controller that has not reconciled or does not exist
   */
  public long reconciles(String controller) {
    return meters
        .find(MicrometerControllerMetrics.RECONCILE)
        .tag("controller", controller)
        .timers()
        .stream()
        .mapToLong(Timer::count)
        .sum();
  }

  /**
   * Deletes leftovers that carry finalizers and waits for the operator to finalize them, then stops
   * the operator and closes its client.
   *
   * @throws IllegalStateException when the operator did not finalize every leftover in time; their
   *     finalizers were removed by force so the namespace can still be deleted, and the message
   *     names each one
   */
  @Override
  public void close() {
    List<String> forced;
    try (KubernetesClient admin = settings.cluster.newClient()) {
      forced = cleanUpLeftovers(admin);
    } finally {
      operator.stop(settings.stopTimeout);
      client.close();
    }
    if (!forced.isEmpty()) {
      throw new IllegalStateException(
          "operator "
              + operator.name()
              + " did not finalize "
              + String.join(", ", forced)
              + " within "
              + settings.cleanUpTimeout
              + " after the test deleted them; their finalizers were removed by force. Check the"
              + " operator's log for its cleanup hook, and its RBAC rule to patch the kind");
    }
  }

  private List<String> cleanUpLeftovers(KubernetesClient admin) {
    List<HasMetadata> leftovers = leftovers(admin);
    if (leftovers.isEmpty()) {
      return List.of();
    }
    LOG.info(
        "deleting {} object(s) with finalizers before operator {} stops: {}",
        leftovers.size(),
        operator.name(),
        leftovers.stream().map(RunningOperator::describe).toList());
    for (HasMetadata object : leftovers) {
      try {
        admin.resource(object).delete();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404) {
          throw e;
        }
      }
    }
    try {
      await("objects with finalizers finalized by operator " + operator.name())
          .atMost(settings.cleanUpTimeout)
          .pollInterval(Duration.ofMillis(200))
          .until(() -> leftovers(admin).isEmpty());
      return List.of();
    } catch (ConditionTimeoutException e) {
      List<String> forced = new ArrayList<>();
      for (HasMetadata object : leftovers(admin)) {
        String described =
            describe(object) + " (finalizers " + object.getMetadata().getFinalizers() + ")";
        LOG.warn(
            "removing the finalizers of {} by force: the operator did not finalize it", described);
        admin
            .resource(object)
            .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
        forced.add(described);
      }
      return forced;
    }
  }

  private List<HasMetadata> leftovers(KubernetesClient admin) {
    return settings.cleanUpKinds.stream()
        .flatMap(kind -> list(admin, kind))
        .filter(
            o ->
                o.getMetadata().getFinalizers() != null
                    && !o.getMetadata().getFinalizers().isEmpty())
        .toList();
  }

  private Stream<HasMetadata> list(KubernetesClient admin, Class<? extends HasMetadata> kind) {
    if (settings.namespaces.isEmpty()) {
      return admin.resources(kind).inAnyNamespace().list().getItems().stream()
          .map(HasMetadata.class::cast);
    }
    return settings.namespaces.stream()
        .flatMap(
            ns ->
                admin.resources(kind).inNamespace(ns).list().getItems().stream()
                    .map(HasMetadata.class::cast));
  }

  private static String describe(HasMetadata object) {
    String namespace = object.getMetadata().getNamespace();
    return object.getKind()
        + " "
        + (namespace == null ? "" : namespace + "/")
        + object.getMetadata().getName();
  }
}
