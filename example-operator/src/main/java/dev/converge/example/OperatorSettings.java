package dev.converge.example;

import dev.converge.operator.RunSettings;
import dev.converge.strategy.StrategySelection;

/**
 * How the AppDeployment operator runs unless told otherwise: its name, the strategy of each kind it
 * writes and how many AppDeployments it reconciles at once. Everything else an operator is run with
 * (namespaces, leader election, the clock, the access review interval) is core's {@link
 * RunSettings}, filled from the command line by core's {@code OperatorOptions}.
 */
public final class OperatorSettings {

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

  private OperatorSettings() {}

  /**
   * All namespaces, the default strategies, no leader election, the system clock, the default
   * access review interval and {@value #DEFAULT_WORKERS} workers.
   */
  public static RunSettings defaults() {
    return RunSettings.of(OPERATOR_NAME, DEFAULT_STRATEGIES).withWorkers(DEFAULT_WORKERS);
  }

  /**
   * The user agent of the operator's client, {@code app-operator/<version>} ({@code dev} when run
   * from sources): the API server records the update strategy's writes under its first word.
   */
  public static String userAgent() {
    return defaults().userAgent(OperatorSettings.class);
  }
}
