package dev.converge.operator;

/** What an {@link Operator} does after it lost the leader Lease and stopped reconciling. */
public enum LeadershipLoss {
  /**
   * Stay stopped: the state becomes {@link OperatorState#LEADERSHIP_LOST}, {@code health().live()}
   * turns false and {@code onLeadershipLost} runs, so that the program (or the kubelet, through the
   * liveness probe) restarts the process. The default, as in controller-runtime.
   */
  STOP,
  /**
   * Stand by again: keep the caches, go back to {@link OperatorState#STANDBY} and rejoin the
   * election; on winning it again, reconcile every primary once more.
   */
  REJOIN
}
