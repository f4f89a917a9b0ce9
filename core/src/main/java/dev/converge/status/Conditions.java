package dev.converge.status;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Maintains a status' list of conditions ({@link io.fabric8.kubernetes.api.model.Condition}, the
 * wire type of {@code metav1.Condition}) with the API conventions' semantics: {@code
 * lastTransitionTime} is set when a condition appears and when its {@code status} flips, and is
 * kept when only reason, message or observedGeneration change. That is what makes "Ready since
 * 10:02" meaningful and what keeps an unchanged status from being rewritten every reconcile.
 *
 * <p>Lists are never modified in place: {@link #set} returns a new list, because the list may
 * belong to an object from an informer cache. Time comes from the injected {@link Clock}, truncated
 * to seconds (the API server stores RFC 3339 seconds).
 */
public final class Conditions {

  /** metav1.Condition's validation of {@code reason}: CamelCase, starts with a letter. */
  private static final Pattern REASON = Pattern.compile("^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$");

  private static final int MAX_MESSAGE = 32768;
  private static final int MAX_REASON = 1024;

  private final Clock clock;

  /**
   * Conditions whose {@code lastTransitionTime} comes from {@code clock}; a test passes a fixed or
   * manual clock to assert exact times.
   *
   * @param clock the clock transition times are read from
   */
  public Conditions(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Conditions stamped with the system clock (UTC), the one a reconciler uses in production.
   *
   * @return conditions on {@link Clock#systemUTC()}
   */
  public static Conditions systemClock() {
    return new Conditions(Clock.systemUTC());
  }

  /**
   * Returns {@code current} with the condition of {@code type} set to the given values and {@code
   * observedGeneration} taken from {@code primary}'s {@code metadata.generation}.
   *
   * @param current the stored conditions; null counts as none, and the list is not modified
   * @param primary the object the conditions describe; null or without a generation leaves
   *     observedGeneration unset
   * @param type the condition's type, such as {@code "Ready"}
   * @param status the condition's status
   * @param reason a CamelCase word saying why
   * @param message a sentence for people; cut to the API server's limit when longer
   * @return a new list with the condition set
   * @throws IllegalArgumentException when the type is blank or the reason is not a CamelCase word
   */
  public List<Condition> set(
      List<Condition> current,
      HasMetadata primary,
      String type,
      ConditionStatus status,
      String reason,
      String message) {
    Long generation =
        primary == null || primary.getMetadata() == null
            ? null
            : primary.getMetadata().getGeneration();
    return put(current, type, status, reason, message, generation);
  }

  /**
   * Returns {@code current} with the condition of {@code type} set to the given values. {@code
   * lastTransitionTime} is now when the condition is new or its status differs from the current
   * one, else the current one is kept. Order of the other conditions is preserved.
   *
   * @param current the stored conditions; null counts as none, and the list is not modified
   * @param type the condition's type, such as {@code "Ready"}
   * @param status the condition's status
   * @param reason a CamelCase word saying why
   * @param message a sentence for people; cut to the API server's limit when longer
   * @param observedGeneration the primary's generation the condition was computed from
   * @return a new list with the condition set
   * @throws IllegalArgumentException when the type is blank or the reason is not a CamelCase word
   */
  public List<Condition> set(
      List<Condition> current,
      String type,
      ConditionStatus status,
      String reason,
      String message,
      long observedGeneration) {
    return put(current, type, status, reason, message, observedGeneration);
  }

  /**
   * As {@link #set(List, String, ConditionStatus, String, String, long)} without
   * observedGeneration, for a status whose conditions do not record it.
   *
   * @param current the stored conditions; null counts as none, and the list is not modified
   * @param type the condition's type, such as {@code "Ready"}
   * @param status the condition's status
   * @param reason a CamelCase word saying why
   * @param message a sentence for people; cut to the API server's limit when longer
   * @return a new list with the condition set
   * @throws IllegalArgumentException when the type is blank or the reason is not a CamelCase word
   */
  public List<Condition> set(
      List<Condition> current, String type, ConditionStatus status, String reason, String message) {
    return put(current, type, status, reason, message, null);
  }

  /**
   * Starts the conditions a reconcile wants, to be folded into a status by {@link
   * WantedConditions#status} or {@link WantedConditions#applyTo}, stamped with this clock.
   *
   * @param type the condition's type, such as {@code "Ready"}
   * @param status the condition's status
   * @param reason a CamelCase word saying why
   * @param message a sentence for people; cut to the API server's limit when longer
   * @return the wanted conditions, to add more to with {@link WantedConditions#and}
   * @throws IllegalArgumentException when the type is blank or the reason is not a CamelCase word
   */
  public WantedConditions want(String type, ConditionStatus status, String reason, String message) {
    return WantedConditions.of(this, type, status, reason, message);
  }

  /**
   * Returns {@code current} without the condition of {@code type}, for a condition that no longer
   * applies (rather than one that turned false).
   *
   * @param current the stored conditions; null counts as none, and the list is not modified
   * @param type the type of the condition to remove
   * @return a new list; equal to {@code current} when it had no such condition
   */
  public static List<Condition> remove(List<Condition> current, String type) {
    List<Condition> result = new ArrayList<>();
    for (Condition c : nullToEmpty(current)) {
      if (!Objects.equals(c.getType(), type)) {
        result.add(c);
      }
    }
    return result;
  }

  /**
   * The condition of {@code type}, if present.
   *
   * @param conditions the conditions to look in; null counts as none
   * @param type the condition's type
   * @return the first condition of that type, or empty
   */
  public static Optional<Condition> find(List<Condition> conditions, String type) {
    return nullToEmpty(conditions).stream()
        .filter(c -> Objects.equals(c.getType(), type))
        .findFirst();
  }

  /**
   * The status of the condition of {@code type}.
   *
   * @param conditions the conditions to look in; null counts as none
   * @param type the condition's type
   * @return the status, or empty when the condition is absent or its status is not a valid one
   */
  public static Optional<ConditionStatus> statusOf(List<Condition> conditions, String type) {
    return find(conditions, type).flatMap(c -> ConditionStatus.parse(c.getStatus()));
  }

  /**
   * Whether the condition of {@code type} is present with status {@code "True"}.
   *
   * @param conditions the conditions to look in; null counts as none
   * @param type the condition's type
   * @return false when the condition is absent, false or unknown
   */
  public static boolean isTrue(List<Condition> conditions, String type) {
    return statusOf(conditions, type).filter(ConditionStatus.TRUE::equals).isPresent();
  }

  /**
   * Whether the condition of {@code type} is present with status {@code "False"}. Not the negation
   * of {@link #isTrue}: an absent or unknown condition is neither.
   *
   * @param conditions the conditions to look in; null counts as none
   * @param type the condition's type
   * @return false when the condition is absent, true or unknown
   */
  public static boolean isFalse(List<Condition> conditions, String type) {
    return statusOf(conditions, type).filter(ConditionStatus.FALSE::equals).isPresent();
  }

  /**
   * {@code lastTransitionTime} of the condition of {@code type}, parsed: how long a condition has
   * held, for a reconciler that acts on a condition stuck for too long.
   *
   * @param conditions the conditions to look in; null counts as none
   * @param type the condition's type
   * @return the time, or empty when the condition is absent or has no transition time
   * @throws java.time.format.DateTimeParseException when the stored time is not RFC 3339
   */
  public static Optional<Instant> lastTransitionTime(List<Condition> conditions, String type) {
    return find(conditions, type)
        .map(Condition::getLastTransitionTime)
        .filter(t -> t != null && !t.isBlank())
        .map(t -> Instant.from(DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(t)));
  }

  private List<Condition> put(
      List<Condition> current,
      String type,
      ConditionStatus status,
      String reason,
      String message,
      Long observedGeneration) {
    validate(type, status, reason);
    Optional<Condition> existing = find(current, type);
    String transition =
        existing
            .filter(c -> status.wireValue().equals(c.getStatus()))
            .map(Condition::getLastTransitionTime)
            .filter(t -> t != null && !t.isBlank())
            .orElseGet(this::now);
    Condition updated =
        new ConditionBuilder()
            .withType(type)
            .withStatus(status.wireValue())
            .withReason(reason)
            .withMessage(bounded(message))
            .withLastTransitionTime(transition)
            .withObservedGeneration(observedGeneration)
            .build();
    List<Condition> result = new ArrayList<>();
    boolean replaced = false;
    for (Condition c : nullToEmpty(current)) {
      if (!replaced && Objects.equals(c.getType(), type)) {
        result.add(updated);
        replaced = true;
      } else if (!Objects.equals(c.getType(), type)) {
        result.add(c);
      }
    }
    if (!replaced) {
      result.add(updated);
    }
    return result;
  }

  private String now() {
    return DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(ChronoUnit.SECONDS));
  }

  static void validate(String type, ConditionStatus status, String reason) {
    if (type == null || type.isBlank()) {
      throw new IllegalArgumentException("condition type must not be blank (e.g. \"Ready\")");
    }
    Objects.requireNonNull(status, "status of condition " + type);
    if (reason == null || reason.length() > MAX_REASON || !REASON.matcher(reason).matches()) {
      throw new IllegalArgumentException(
          "reason of condition "
              + type
              + " must be a CamelCase word"
              + " of at most "
              + MAX_REASON
              + " characters matching "
              + REASON.pattern()
              + " (the API server rejects anything else), was \""
              + reason
              + "\"");
    }
  }

  /**
   * A message within the API server's limit: messages often quote user input (an image reference, a
   * field value), and a status write that fails on its own message reports nothing at all, so an
   * over-long one is cut and says so rather than refused.
   */
  static String bounded(String message) {
    if (message == null) {
      return "";
    }
    if (message.length() <= MAX_MESSAGE) {
      return message;
    }
    String note = " ... (" + (message.length() - MAX_MESSAGE + 64) + " more characters cut)";
    return message.substring(0, MAX_MESSAGE - note.length()) + note;
  }

  private static List<Condition> nullToEmpty(List<Condition> conditions) {
    return conditions == null ? List.of() : conditions;
  }
}
