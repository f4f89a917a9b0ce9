package dev.converge.naming;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The two DNS label rules of Kubernetes names. A Service's name, and with it the name of anything
 * an operator names after its primary and exposes through a Service, is safe on every API server
 * when it is an RFC 1035 label: at most 63 lower-case letters, digits and '-', starting with a
 * letter and ending with a letter or digit. (Servers with the RelaxedServiceNameValidation feature
 * also take an RFC 1123 label there; older ones refuse it.) Namespaces and most other single-label
 * names must be RFC 1123 labels, which may also start with a digit. A custom resource's own name is
 * only checked as a DNS subdomain (253 characters, dots allowed) by the API server, so a name it
 * accepts can still be unusable for the Service an operator derives from it.
 *
 * <pre>{@code
 * Optional<String> problem = DnsLabel.rfc1035Problem(app.getMetadata().getName());
 * if (problem.isPresent()) {
 *   return Result.permanentFailure("InvalidName", "metadata.name: " + problem.get());
 * }
 * }</pre>
 */
public final class DnsLabel {

  /** The longest label, in characters. */
  public static final int MAX_LENGTH = 63;

  private static final Pattern RFC_1035 = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern RFC_1123 = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

  /** How much of a bad value a message quotes. */
  private static final int QUOTED = 80;

  private DnsLabel() {}

  /**
   * True when {@code value} is an RFC 1035 label (a Service name every API server accepts).
   *
   * @param value the name to check; may be null
   * @return whether it is an RFC 1035 label (false for null or empty)
   */
  public static boolean isRfc1035(String value) {
    return rfc1035Problem(value).isEmpty();
  }

  /**
   * True when {@code value} is an RFC 1123 label (a valid namespace name).
   *
   * @param value the name to check; may be null
   * @return whether it is an RFC 1123 label (false for null or empty)
   */
  public static boolean isRfc1123(String value) {
    return rfc1123Problem(value).isEmpty();
  }

  /**
   * What is wrong with {@code value} as an RFC 1035 label, as a sentence naming the value and the
   * rule (e.g. {@code "'web.v2' is not a DNS-1035 label: at most 63 lower-case letters, digits and
   * '-', starting with a letter and ending with a letter or digit"}); empty when it is one.
   *
   * @param value the name to check; may be null
   * @return the problem, fit for a condition message, or empty when {@code value} is a label
   */
  public static Optional<String> rfc1035Problem(String value) {
    return problem(
        value, RFC_1035, "DNS-1035", "starting with a letter and ending with a letter or digit");
  }

  /**
   * As {@link #rfc1035Problem}, for an RFC 1123 label, which may also start with a digit.
   *
   * @param value the name to check; may be null
   * @return the problem, fit for a condition message, or empty when {@code value} is a label
   */
  public static Optional<String> rfc1123Problem(String value) {
    return problem(value, RFC_1123, "DNS-1123", "starting and ending with a letter or digit");
  }

  private static Optional<String> problem(String value, Pattern pattern, String rule, String ends) {
    String what =
        "a "
            + rule
            + " label: at most "
            + MAX_LENGTH
            + " lower-case letters, digits and '-', "
            + ends;
    if (value == null || value.isEmpty()) {
      return Optional.of("an empty name is not " + what);
    }
    String quoted =
        "'" + (value.length() <= QUOTED ? value : value.substring(0, QUOTED) + "...") + "'";
    if (value.length() > MAX_LENGTH) {
      return Optional.of(quoted + " has " + value.length() + " characters, too many for " + what);
    }
    if (!pattern.matcher(value).matches()) {
      return Optional.of(quoted + " is not " + what);
    }
    return Optional.empty();
  }
}
