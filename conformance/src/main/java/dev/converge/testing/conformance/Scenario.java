package dev.converge.testing.conformance;

/** The ten behaviours every strategy is checked for, numbered as in the README table. */
public enum Scenario {
  /** An absent object is created and reported {@code CREATED}. */
  CREATE(1, "create", "absent object is created and reported CREATED"),
  /** The same desired again is {@code UNCHANGED} and sends no write, despite server defaults. */
  NO_OP(
      2, "no-op", "same desired again: UNCHANGED and zero write requests, despite server defaults"),
  /** One desired field changed is {@code UPDATED} with exactly that change, in one write. */
  CHANGE(3, "change", "one desired field changed: UPDATED, exactly that change, one write"),
  /** A field another actor changed that the strategy owns is restored by the next apply. */
  DRIFT(4, "drift", "another actor changes an owned field: restored by the next apply"),
  /** Labels, annotations and fields set by another actor survive an update. */
  FOREIGN(5, "foreign", "labels, annotations and fields set by another actor survive an update"),
  /** A field removed from desired is removed from live. */
  REMOVAL(6, "removal", "a field removed from desired is removed from live"),
  /** A Service's allocated {@code clusterIP} and node ports stay across every update. */
  ALLOCATIONS(7, "allocations", "Service clusterIP and nodePorts unchanged across every update"),
  /** A writer between read and write causes neither a lost update nor endless retries. */
  CONCURRENT(8, "concurrent", "a writer between read and write: no lost update, no endless retry"),
  /** Changing an immutable field fails with an error naming the field. */
  IMMUTABLE(9, "immutable", "changing an immutable field fails with an error naming the field"),
  /** Switching the object between strategies converges, and removals still work afterwards. */
  SWITCH(10, "switch", "switching the object between strategies converges and removals still work");

  private final int number;
  private final String shortName;
  private final String description;

  Scenario(int number, String shortName, String description) {
    this.number = number;
    this.shortName = shortName;
    this.description = description;
  }

  /**
   * The scenario's number in the README table.
   *
   * @return 1 to 10
   */
  public int number() {
    return number;
  }

  /**
   * A one-word name used in reports and declared limits.
   *
   * @return the short name, such as {@code drift}
   */
  public String shortName() {
    return shortName;
  }

  /**
   * What the scenario checks, as one line of a report.
   *
   * @return the description
   */
  public String description() {
    return description;
  }
}
