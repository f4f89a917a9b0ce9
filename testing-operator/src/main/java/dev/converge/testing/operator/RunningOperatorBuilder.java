package dev.converge.testing.operator;

import dev.converge.operator.DryRunReport;
import dev.converge.operator.Operator;
import dev.converge.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** How {@link RunningOperator#start} runs the operator under test; see {@link RunningOperator}. */
public final class RunningOperatorBuilder {

  final LocalCluster cluster;
  String userAgent = "operator-under-test/test";
  String user;
  List<String> groups = List.of();
  final List<Class<?>> crdClasses = new ArrayList<>();
  final List<Path> crdFiles = new ArrayList<>();
  final Set<Class<? extends HasMetadata>> cleanUpKinds = new LinkedHashSet<>();
  final Set<String> namespaces = new LinkedHashSet<>();
  Duration cachesSyncTimeout = Duration.ofSeconds(30);
  Duration cleanUpTimeout = Duration.ofSeconds(30);
  Duration stopTimeout = Duration.ofSeconds(10);
  Duration passTimeout = Duration.ofMinutes(5);

  RunningOperatorBuilder(LocalCluster cluster) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
  }

  /**
   * The operator client's user agent, {@code name/version}. The API server records PUT and POST
   * writes under its first word as field manager, so give the one your operator uses in production.
   * Default {@code operator-under-test/test}.
   *
   * @param userAgent {@code name/version}
   * @return this builder
   * @throws IllegalArgumentException when {@code userAgent} is blank
   */
  public RunningOperatorBuilder userAgent(String userAgent) {
    if (userAgent == null || userAgent.isBlank()) {
      throw new IllegalArgumentException(
          "user agent must not be blank; give name/version, such as" + " \"widget-operator/1.0\"");
    }
    this.userAgent = userAgent;
    return this;
  }

  /**
   * Authorizes the operator as {@code user} in {@code groups} (impersonation by the administrator
   * client), so the RBAC rules bound to that user are all it may do; for a ServiceAccount, {@code
   * system:serviceaccount:<namespace>:<name>} in {@code system:serviceaccounts} and {@code
   * system:serviceaccounts:<namespace>}. Default: cluster administrator.
   *
   * @param user the user name the operator's requests are made as
   * @param groups the groups of that user
   * @return this builder
   */
  public RunningOperatorBuilder impersonating(String user, String... groups) {
    this.user = Objects.requireNonNull(user, "user");
    this.groups = List.of(groups);
    return this;
  }

  /**
   * Custom resource classes whose CRDs are generated and installed once per JVM before the operator
   * starts; their objects that still carry finalizers are deleted before it stops.
   *
   * @param resourceClasses the custom resource classes
   * @return this builder
   */
  @SafeVarargs
  public final RunningOperatorBuilder crds(Class<? extends HasMetadata>... resourceClasses) {
    for (Class<? extends HasMetadata> type : resourceClasses) {
      crdClasses.add(type);
      cleanUpKinds.add(type);
    }
    return this;
  }

  /**
   * CRD files (one definition each) installed once per JVM before the operator starts. Unlike
   * {@link #crds}, their kinds are not cleaned up unless given to {@link #cleanUp}.
   *
   * @param files the YAML files
   * @return this builder
   */
  public RunningOperatorBuilder crdFiles(Path... files) {
    crdFiles.addAll(List.of(files));
    return this;
  }

  /**
   * More kinds whose objects still carrying finalizers are deleted, while the operator still runs
   * its cleanup, before it stops (the kinds given to {@link #crds} are included).
   *
   * @param kinds the kinds' classes
   * @return this builder
   */
  @SafeVarargs
  public final RunningOperatorBuilder cleanUp(Class<? extends HasMetadata>... kinds) {
    for (Class<? extends HasMetadata> kind : kinds) {
      cleanUpKinds.add(kind);
    }
    return this;
  }

  /**
   * Namespaces the leftovers are looked for in: the test's namespace, which the operator watches.
   * Default: every namespace. Call it once per namespace.
   *
   * @param namespace the namespace's name
   * @return this builder
   */
  public RunningOperatorBuilder namespace(String namespace) {
    namespaces.add(Objects.requireNonNull(namespace, "namespace"));
    return this;
  }

  /**
   * How long the caches may take to sync at start. Default 30 s.
   *
   * @param timeout a positive duration
   * @return this builder
   * @throws IllegalArgumentException when {@code timeout} is not positive
   */
  public RunningOperatorBuilder cachesSyncTimeout(Duration timeout) {
    this.cachesSyncTimeout = positive(timeout, "cachesSyncTimeout");
    return this;
  }

  /**
   * How long the operator may take to finalize leftovers at close. Default 30 s.
   *
   * @param timeout a positive duration
   * @return this builder
   * @throws IllegalArgumentException when {@code timeout} is not positive
   */
  public RunningOperatorBuilder cleanUpTimeout(Duration timeout) {
    this.cleanUpTimeout = positive(timeout, "cleanUpTimeout");
    return this;
  }

  /**
   * How long in-flight reconciles may run on at close. Default 10 s.
   *
   * @param timeout a positive duration
   * @return this builder
   * @throws IllegalArgumentException when {@code timeout} is not positive
   */
  public RunningOperatorBuilder stopTimeout(Duration timeout) {
    this.stopTimeout = positive(timeout, "stopTimeout");
    return this;
  }

  /**
   * Installs the CRDs, builds the operator with {@code factory} on a client of its own, starts it
   * and waits until its caches have synced.
   *
   * @param factory builds the operator on the client given to it
   * @return the running operator; close it at the end of the test
   * @throws IllegalStateException when the caches do not sync in time (with the operator's health
   *     problems, typically a watch the operator is not allowed)
   */
  public RunningOperator start(OperatorFactory factory) {
    return RunningOperator.start(this, Objects.requireNonNull(factory, "factory"));
  }

  /**
   * How long {@link #dryRunPass} may take once the caches synced; default 5 minutes.
   *
   * @param timeout the longest pass
   * @return this builder
   * @throws IllegalArgumentException when {@code timeout} is not positive
   */
  public RunningOperatorBuilder passTimeout(Duration timeout) {
    this.passTimeout = positive(timeout, "passTimeout");
    return this;
  }

  /**
   * Asks what a pass of the operator would change, without changing anything: installs the CRDs,
   * builds the operator with {@code factory} on a client of its own, runs {@link
   * Operator#dryRunPass} (every primary reconciled once, every write a server-side dry run, no
   * Event, no Lease) and stops it. The factory must build the operator with {@code
   * OperatorBuilder.dryRun(true)}; a factory that takes the builder's settings from the test passes
   * it there.
   *
   * <pre>{@code
   * DryRunReport report = RunningOperator.on(cluster).crds(Widget.class).namespace(ns.name())
   *     .dryRunPass((client, meters) -> WidgetOperator.builder(client).dryRun(true).build());
   * assertThat(report.changes()).isEmpty();
   * }</pre>
   *
   * @param factory builds the dry-run operator on the client given to it
   * @return the pass's report
   * @throws IllegalArgumentException when the factory built an operator for a real run
   * @throws IllegalStateException when the caches do not sync or the pass does not end in time
   */
  public DryRunReport dryRunPass(OperatorFactory factory) {
    return RunningOperator.dryRunPass(this, Objects.requireNonNull(factory, "factory"));
  }

  private static Duration positive(Duration value, String name) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
    return value;
  }
}
