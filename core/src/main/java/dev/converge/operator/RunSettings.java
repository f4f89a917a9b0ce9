package dev.converge.operator;

import dev.converge.strategy.StrategySelection;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * How an operator runs, independent of where the values came from (flags, a config file, a test):
 * the run configuration every operator has, so that an operator's own wiring is only its name, its
 * default strategies and its controllers.
 *
 * <pre>{@code
 * RunSettings settings = RunSettings.of("app-operator", StrategySelection.parse("default=ssa"))
 *     .withNamespace("shop")
 *     .withWorkers(8);
 * Operator operator = settings.applyTo(Operator.builder(client))
 *     .strategies(settings.strategies())
 *     .controller(...)
 *     .build();
 * }</pre>
 *
 * {@code OperatorOptions.settings(defaults)} (core's picocli mixin) fills one from the command
 * line, and {@code ConvergeModule.of(client, settings, registry)} assembles it with Guice.
 *
 * @param name the operator's name: its Event component, field manager, Lease name and the first
 *     word of its user agent
 * @param namespaces the namespaces to watch; empty for all namespaces
 * @param strategies which strategy writes each kind
 * @param leaderElection the Lease to hold while reconciling; empty to reconcile without one
 * @param clock the clock of condition timestamps
 * @param accessReviewInterval how often the operator asks the API server whether its RBAC still
 *     allows everything it needs (see {@link OperatorBuilder#accessReviewInterval})
 * @param workers how many primaries each controller reconciles at once (a controller may pass it to
 *     {@code ControllerBuilder.maxConcurrentReconciles})
 */
public record RunSettings(
    String name,
    Set<String> namespaces,
    StrategySelection strategies,
    Optional<LeaderElection> leaderElection,
    Clock clock,
    Duration accessReviewInterval,
    int workers) {

  public RunSettings {
    Objects.requireNonNull(name, "name");
    namespaces = Set.copyOf(new TreeSet<>(Objects.requireNonNull(namespaces, "namespaces")));
    Objects.requireNonNull(strategies, "strategies");
    Objects.requireNonNull(leaderElection, "leaderElection");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(accessReviewInterval, "accessReviewInterval");
    if (accessReviewInterval.isNegative()) {
      throw new IllegalArgumentException(
          "accessReviewInterval must not be negative, was " + accessReviewInterval);
    }
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be at least 1, was " + workers);
    }
  }

  /**
   * The operator {@code name} writing with {@code strategies}: all namespaces, no leader election,
   * the system clock (UTC), the default access review interval and one worker per controller.
   */
  public static RunSettings of(String name, StrategySelection strategies) {
    return new RunSettings(
        name,
        Set.of(),
        strategies,
        Optional.empty(),
        Clock.systemUTC(),
        OperatorBuilder.DEFAULT_ACCESS_REVIEW_INTERVAL,
        1);
  }

  /** These settings, also watching {@code namespace}. */
  public RunSettings withNamespace(String namespace) {
    Set<String> more = new TreeSet<>(namespaces);
    more.add(Objects.requireNonNull(namespace, "namespace"));
    return withNamespaces(more);
  }

  /** These settings watching exactly {@code names}; empty for all namespaces. */
  public RunSettings withNamespaces(Set<String> names) {
    return new RunSettings(
        name, names, strategies, leaderElection, clock, accessReviewInterval, workers);
  }

  public RunSettings withStrategies(StrategySelection selection) {
    return new RunSettings(
        name, namespaces, selection, leaderElection, clock, accessReviewInterval, workers);
  }

  /** These settings holding {@code election}'s Lease while reconciling. */
  public RunSettings withLeaderElection(LeaderElection election) {
    return withLeaderElection(Optional.of(election));
  }

  /** These settings with {@code election}; empty to reconcile without a Lease. */
  public RunSettings withLeaderElection(Optional<LeaderElection> election) {
    return new RunSettings(
        name, namespaces, strategies, election, clock, accessReviewInterval, workers);
  }

  public RunSettings withClock(Clock conditionClock) {
    return new RunSettings(
        name,
        namespaces,
        strategies,
        leaderElection,
        conditionClock,
        accessReviewInterval,
        workers);
  }

  public RunSettings withAccessReviewInterval(Duration interval) {
    return new RunSettings(name, namespaces, strategies, leaderElection, clock, interval, workers);
  }

  /** These settings reconciling {@code count} primaries at once per controller. */
  public RunSettings withWorkers(int count) {
    return new RunSettings(
        name, namespaces, strategies, leaderElection, clock, accessReviewInterval, count);
  }

  /**
   * Sets the name, namespaces, leader election and access review interval on {@code builder}. The
   * strategies are left to the caller, because they come either from {@code
   * builder.strategies(settings.strategies())} (found by ServiceLoader) or from Guice's {@code
   * StrategiesModule}; so are the controllers, which use the clock and the workers.
   *
   * @return {@code builder}
   */
  public OperatorBuilder applyTo(OperatorBuilder builder) {
    builder.name(name).namespaces(namespaces);
    leaderElection.ifPresent(builder::leaderElection);
    return builder.accessReviewInterval(accessReviewInterval);
  }

  /**
   * The user agent {@code <name>/<version>}, the version being the {@code Implementation-Version}
   * of the jar holding {@code versionOf} ({@code dev} when run from sources). The API server
   * records a PUT or POST, which carries no field manager, under the user agent's first word, so an
   * operator's writes by create-or-update stand under its own name in managedFields and server-side
   * apply takes over exactly those.
   */
  public String userAgent(Class<?> versionOf) {
    String version =
        Optional.ofNullable(versionOf.getPackage())
            .map(Package::getImplementationVersion)
            .orElse("dev");
    return name + "/" + version;
  }
}
