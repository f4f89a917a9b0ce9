package dev.converge.crd.roundtrip;

import java.util.List;

/**
 * What one {@link SchemaRoundTrip} run did on the API server.
 *
 * @param resource the custom resource, {@code <plural>.<group>/<version>}
 * @param seed the random seed; the same seed draws the same values again
 * @param instances random instances written
 * @param accepted instances the server accepted and returned equal to what fabric8 wrote (after the
 *     server's own defaulting and pruning)
 * @param statuses random statuses written through the status subresource (one per accepted
 *     instance, when the resource has a status subresource)
 * @param statusesAccepted statuses accepted and read back equal
 * @param redrawn draws the server refused only because a CEL rule said no, drawn again (random
 *     values cannot be made to satisfy an arbitrary rule)
 * @param hostile values written that break one declared constraint each
 * @param hostileFound the constraints the schema declares (every one is written unless a limit was
 *     set; wrong-type values beyond the limit are left out)
 * @param refused hostile values refused with the field named
 * @param unbrokenRules CEL rules the run could not break on purpose, as {@code path: rule}
 * @param failures what went wrong, each naming the path, the value and what the server said; empty
 *     when the schema and fabric8 agree
 */
public record RoundTripReport(
    String resource,
    long seed,
    int instances,
    int accepted,
    int statuses,
    int statusesAccepted,
    int redrawn,
    int hostile,
    int hostileFound,
    int refused,
    List<String> unbrokenRules,
    List<String> failures) {

  /**
   * Copies the lists.
   *
   * @param resource the custom resource, {@code <plural>.<group>/<version>}
   * @param seed the random seed; the same seed draws the same values again
   * @param instances random instances written
   * @param accepted instances the server accepted and returned equal to what fabric8 wrote (after
   *     the server's own defaulting and pruning)
   * @param statuses random statuses written through the status subresource (one per accepted
   *     instance, when the resource has a status subresource)
   * @param statusesAccepted statuses accepted and read back equal
   * @param redrawn draws the server refused only because a CEL rule said no, drawn again (random
   *     values cannot be made to satisfy an arbitrary rule)
   * @param hostile values written that break one declared constraint each
   * @param hostileFound the constraints the schema declares (every one is written unless a limit
   *     was set; wrong-type values beyond the limit are left out)
   * @param refused hostile values refused with the field named
   * @param unbrokenRules CEL rules the run could not break on purpose, as {@code path: rule}
   * @param failures what went wrong, each naming the path, the value and what the server said;
   *     empty when the schema and fabric8 agree
   */
  public RoundTripReport {
    unbrokenRules = List.copyOf(unbrokenRules);
    failures = List.copyOf(failures);
  }

  /**
   * {@return whether every instance round-tripped and every hostile value was refused with its
   * field named}
   */
  public boolean passed() {
    return failures.isEmpty()
        && accepted == instances
        && statusesAccepted == statuses
        && refused == hostile;
  }

  /** {@return one line for a test log} */
  public String summary() {
    return resource
        + ": "
        + accepted
        + "/"
        + instances
        + " random instances accepted and read back equal, "
        + statusesAccepted
        + "/"
        + statuses
        + " statuses ("
        + redrawn
        + " draws redrawn for CEL rules), "
        + refused
        + "/"
        + hostile
        + " hostile values refused with the field"
        + " named (of "
        + hostileFound
        + " found), "
        + unbrokenRules.size()
        + " CEL rule(s) not broken on purpose, seed "
        + seed
        + (failures.isEmpty() ? "" : ", " + failures.size() + " failure(s)");
  }
}
