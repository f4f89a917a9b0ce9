package dev.converge.example;

import dev.converge.operator.LeaderElection;
import dev.converge.operator.OperatorBuilder;
import dev.converge.strategy.StrategySelection;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How the AppDeployment operator runs, independent of where the values came from (flags, a config
 * file, a test).
 *
 * @param namespaces the namespaces to watch; empty for all namespaces
 * @param strategies which strategy writes each kind
 * @param leaderElection the Lease to hold while reconciling; empty to reconcile without one
 * @param clock the clock of condition timestamps
 * @param accessReviewInterval how often the operator asks the API server whether its RBAC still
 *     allows everything it needs (see {@code OperatorBuilder.accessReviewInterval})
 * @param workers how many AppDeployments are reconciled at once
 */
public record OperatorSettings(
    Set<String> namespaces,
    StrategySelection strategies,
    Optional<LeaderElection> leaderElection,
    Clock clock,
    Duration accessReviewInterval,
    int workers) {

  /**
   * Reconciles at once by default. A reconcile of a new AppDeployment spends nearly all its time
   * waiting for the API server (three writes, one after the other): with 10,000 new AppDeployments
   * on a busy two-core machine, 4 workers kept the operator's CPU at a fifth of a core while each
   * reconcile took a quarter of a second; 16 keep about as many requests in flight as the
   * benchmark's raw-client floor does.
   */
  public static final int DEFAULT_WORKERS = 16;

  /** The operator's name: its Event component, its field manager and its Lease name. */
  public static final String OPERATOR_NAME = "app-operator";

  /**
   * The example's default: Deployments by server-side apply, Services by create-or-update (so that
   * keeping the allocated clusterIP is exercised on every update), anything else by ssa.
   */
  public static final StrategySelection DEFAULT_STRATEGIES =
      StrategySelection.parse("default=ssa, apps/v1/Deployment=ssa, v1/Service=update");

  public OperatorSettings {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be at least 1, was " + workers);
    }
    namespaces = Set.copyOf(Objects.requireNonNull(namespaces, "namespaces"));
    Objects.requireNonNull(strategies, "strategies");
    Objects.requireNonNull(leaderElection, "leaderElection");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(accessReviewInterval, "accessReviewInterval");
  }

  /**
   * These settings with the default access review interval and {@value #DEFAULT_WORKERS} workers.
   */
  public OperatorSettings(
      Set<String> namespaces,
      StrategySelection strategies,
      Optional<LeaderElection> leaderElection,
      Clock clock) {
    this(
        namespaces,
        strategies,
        leaderElection,
        clock,
        OperatorBuilder.DEFAULT_ACCESS_REVIEW_INTERVAL,
        DEFAULT_WORKERS);
  }

  /** All namespaces, default strategies, no leader election, the system clock. */
  public static OperatorSettings defaults() {
    return new OperatorSettings(Set.of(), DEFAULT_STRATEGIES, Optional.empty(), Clock.systemUTC());
  }

  /** These settings, also watching {@code ns}. */
  public OperatorSettings withNamespace(String ns) {
    Set<String> more = new java.util.TreeSet<>(namespaces);
    more.add(ns);
    return new OperatorSettings(
        more, strategies, leaderElection, clock, accessReviewInterval, workers);
  }

  public OperatorSettings withStrategies(StrategySelection selection) {
    return new OperatorSettings(
        namespaces, selection, leaderElection, clock, accessReviewInterval, workers);
  }

  public OperatorSettings withLeaderElection(LeaderElection election) {
    return new OperatorSettings(
        namespaces, strategies, Optional.of(election), clock, accessReviewInterval, workers);
  }

  public OperatorSettings withAccessReviewInterval(Duration interval) {
    return new OperatorSettings(namespaces, strategies, leaderElection, clock, interval, workers);
  }

  /** These settings reconciling {@code count} AppDeployments at once. */
  public OperatorSettings withWorkers(int count) {
    return new OperatorSettings(
        namespaces, strategies, leaderElection, clock, accessReviewInterval, count);
  }

  /**
   * The user agent of the operator's client, {@code app-operator/<version>} ({@code dev} when run
   * from sources). The API server records a PUT or POST, which fabric8 cannot label with a field
   * manager, under the user agent's first word, so the operator's writes by the update strategy
   * stand under its own name in managedFields, and the ssa strategy takes over exactly those.
   */
  public static String userAgent() {
    String version =
        Optional.ofNullable(OperatorSettings.class.getPackage().getImplementationVersion())
            .orElse("dev");
    return OPERATOR_NAME + "/" + version;
  }
}
