package dev.converge.webhooks;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link Validator} decides: allowed (possibly with warnings the client prints), or denied
 * with the field at fault and the reason.
 *
 * @param allowed whether the request may proceed
 * @param field the JSON path of the field at fault, e.g. {@code spec.configMapName} (empty when
 *     allowed)
 * @param reason why it is denied, in words a user acts on (empty when allowed)
 * @param warnings shown by kubectl as {@code Warning: ...}, allowed or not
 */
public record Verdict(boolean allowed, String field, String reason, List<String> warnings) {

  /**
   * Checks the verdict and copies the warnings.
   *
   * @param allowed whether the request may proceed
   * @param field the JSON path of the field at fault, e.g. {@code spec.configMapName} (empty when
   *     allowed)
   * @param reason why it is denied, in words a user acts on (empty when allowed)
   * @param warnings shown by kubectl as {@code Warning: ...}, allowed or not
   * @throws IllegalArgumentException when a denial has no reason
   */
  public Verdict {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(reason, "reason");
    warnings = List.copyOf(warnings);
    if (!allowed && reason.isBlank()) {
      throw new IllegalArgumentException("a denial needs a reason");
    }
  }

  /** {@return an allowing verdict} */
  public static Verdict allow() {
    return new Verdict(true, "", "", List.of());
  }

  /**
   * {@return an allowing verdict with warnings for the client}
   *
   * @param warnings what kubectl prints as {@code Warning: ...}
   */
  public static Verdict allowWithWarnings(String... warnings) {
    return new Verdict(true, "", "", List.of(warnings));
  }

  /**
   * {@return a denial because of {@code field}, for {@code reason}}
   *
   * @param field the JSON path of the field at fault, e.g. {@code spec.image}
   * @param reason why, in words a user acts on; not blank
   */
  public static Verdict deny(String field, String reason) {
    return new Verdict(false, field, reason, List.of());
  }

  /**
   * {@return this verdict with one more warning}
   *
   * @param warning what kubectl prints as {@code Warning: ...}
   */
  public Verdict withWarning(String warning) {
    List<String> more = new java.util.ArrayList<>(warnings);
    more.add(warning);
    return new Verdict(allowed, field, reason, more);
  }
}
