package dev.converge.example;

import dev.converge.operator.LeaderElection;
import dev.converge.strategy.StrategySelection;
import dev.converge.operator.OperatorBuilder;
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
 */
public record OperatorSettings(
    Set<String> namespaces,
    StrategySelection strategies,
    Optional<LeaderElection> leaderElection,
    Clock clock,
    Duration accessReviewInterval) {

  /** The operator's name: its Event component, its field manager and its Lease name. */
  public static final String OPERATOR_NAME = "app-operator";

  /**
   * The example's default: Deployments by server-side apply, Services by create-or-update (so that
   * keeping the allocated clusterIP is exercised on every update), anything else by ssa.
   */
  public static final StrategySelection DEFAULT_STRATEGIES =
      StrategySelection.parse("default=ssa, apps/v1/Deployment=ssa, v1/Service=update");

  public OperatorSettings {
    namespaces = Set.copyOf(Objects.requireNonNull(namespaces, "namespaces"));
    Objects.requireNonNull(strategies, "strategies");
    Objects.requireNonNull(leaderElection, "leaderElection");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(accessReviewInterval, "accessReviewInterval");
  }

  /** As before the access review interval was a setting: the default interval. */
  public OperatorSettings(Set<String> namespaces, StrategySelection strategies,
      Optional<LeaderElection> leaderElection, Clock clock) {
    this(namespaces, strategies, leaderElection, clock,
        OperatorBuilder.DEFAULT_ACCESS_REVIEW_INTERVAL);
  }

  /** All namespaces, default strategies, no leader election, the system clock. */
  public static OperatorSettings defaults() {
    return new OperatorSettings(Set.of(), DEFAULT_STRATEGIES, Optional.empty(),
        Clock.systemUTC());
  }

  /** These settings, also watching {@code ns}. */
  public OperatorSettings withNamespace(String ns) {
    Set<String> more = new java.util.TreeSet<>(namespaces);
    more.add(ns);
    return new OperatorSettings(more, strategies, leaderElection, clock, accessReviewInterval);
  }

  public OperatorSettings withStrategies(StrategySelection selection) {
    return new OperatorSettings(namespaces, selection, leaderElection, clock, accessReviewInterval);
  }

  public OperatorSettings withLeaderElection(LeaderElection election) {
    return new OperatorSettings(namespaces, strategies, Optional.of(election), clock,
        accessReviewInterval);
  }

  public OperatorSettings withAccessReviewInterval(Duration interval) {
    return new OperatorSettings(namespaces, strategies, leaderElection, clock, interval);
  }

  /**
   * The user agent of the operator's client, {@code app-operator/<version>} ({@code dev} when run
   * from sources). The API server records a PUT or POST, which fabric8 cannot label with a field
   * manager, under the user agent's first word, so the operator's writes by the update strategy
   * stand under its own name in managedFields, and the ssa strategy takes over exactly those.
   */
  public static String userAgent() {
    String version = Optional.ofNullable(OperatorSettings.class.getPackage().getImplementationVersion())
        .orElse("dev");
    return OPERATOR_NAME + "/" + version;
  }
}
