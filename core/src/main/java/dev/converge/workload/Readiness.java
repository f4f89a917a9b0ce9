package dev.converge.workload;

import java.util.Objects;

/**
 * The readiness of one object and a sentence for humans saying why, fit for a condition message
 * (e.g. {@code "2 of 3 pods of the current template are ready"}).
 *
 * @param state where it stands
 * @param message why, in a few words; never blank
 */
public record Readiness(ReadinessState state, String message) {

  /**
   * Checks that the readiness says why.
   *
   * @param state where it stands
   * @param message why, in a few words; never blank
   * @throws IllegalArgumentException when {@code message} is null or blank
   */
  public Readiness {
    Objects.requireNonNull(state, "state");
    if (message == null || message.isBlank()) {
      throw new IllegalArgumentException("a readiness needs a message saying why");
    }
  }

  static Readiness current(String message) {
    return new Readiness(ReadinessState.CURRENT, message);
  }

  static Readiness inProgress(String message) {
    return new Readiness(ReadinessState.IN_PROGRESS, message);
  }

  static Readiness failed(String message) {
    return new Readiness(ReadinessState.FAILED, message);
  }

  /**
   * Whether the latest spec is fully realised.
   *
   * @return true for {@link ReadinessState#CURRENT}
   */
  public boolean isCurrent() {
    return state == ReadinessState.CURRENT;
  }

  /**
   * Whether it will not get there without a change.
   *
   * @return true for {@link ReadinessState#FAILED}
   */
  public boolean isFailed() {
    return state == ReadinessState.FAILED;
  }
}
