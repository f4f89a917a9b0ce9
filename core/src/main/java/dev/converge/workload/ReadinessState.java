package dev.converge.workload;

/**
 * Where an object stands, in the spirit of the kstatus conventions: has its controller done what
 * the latest spec asks?
 */
public enum ReadinessState {
  /** The latest spec is fully realised: every replica updated, ready and available. */
  CURRENT,
  /** Its controller is still working on it (or has not yet looked at the latest spec). */
  IN_PROGRESS,
  /**
   * It will not get there without a change: a rollout past its deadline, a failed Job, a lost
   * volume.
   */
  FAILED,
  /** It is being deleted. */
  TERMINATING
}
