package dev.converge.testing.conformance;

/** The ten behaviours every strategy is checked for, numbered as in the README table. */
public enum Scenario {
  CREATE(1, "create", "absent object is created and reported CREATED"),
  NO_OP(
      2, "no-op", "same desired again: UNCHANGED and zero write requests, despite server defaults"),
  CHANGE(3, "change", "one desired field changed: UPDATED, exactly that change, one write"),
  DRIFT(4, "drift", "another actor changes an owned field: restored by the next apply"),
  FOREIGN(5, "foreign", "labels, annotations and fields set by another actor survive an update"),
  REMOVAL(6, "removal", "a field removed from desired is removed from live"),
  ALLOCATIONS(7, "allocations", "Service clusterIP and nodePorts unchanged across every update"),
  CONCURRENT(8, "concurrent", "a writer between read and write: no lost update, no endless retry"),
  IMMUTABLE(9, "immutable", "changing an immutable field fails with an error naming the field"),
  SWITCH(10, "switch", "switching the object between strategies converges and removals still work");

  private final int number;
  private final String shortName;
  private final String description;

  Scenario(int number, String shortName, String description) {
    this.number = number;
    this.shortName = shortName;
    this.description = description;
  }

  /** 1 to 10. */
  public int number() {
    return number;
  }

  /** A one-word name used in reports. */
  public String shortName() {
    return shortName;
  }

  /** What the scenario checks. */
  public String description() {
    return description;
  }
}
