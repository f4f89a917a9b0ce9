package dev.converge.schema;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A one-of group of fields in a struct: at most one member may be set, and where there is a
 * discriminator ({@code type}) its value says which. When a writer sets a member or the
 * discriminator, the members it does not select must be cleared, or the server refuses the object
 * (a Deployment switched to {@code Recreate} keeping its defaulted {@code rollingUpdate}).
 *
 * @param typeName the schema definition of the struct, e.g. {@code
 *     io.k8s.api.apps.v1.DeploymentStrategy}
 * @param discriminator the field whose value selects the member, or empty
 * @param memberByValue for a discriminated union, the member each discriminator value selects
 *     (values without a member select none)
 * @param members every member field
 */
public record Union(
    String typeName,
    Optional<String> discriminator,
    Map<String, String> memberByValue,
    Set<String> members) {

  /**
   * Keeps unmodifiable copies of the maps and sets.
   *
   * @param typeName the schema definition of the struct
   * @param discriminator the field whose value selects the member, or empty
   * @param memberByValue the member each discriminator value selects
   * @param members every member field
   * @throws NullPointerException if an argument, a key or a value is null
   */
  public Union {
    Objects.requireNonNull(typeName, "typeName");
    Objects.requireNonNull(discriminator, "discriminator");
    memberByValue = Map.copyOf(memberByValue);
    members = Set.copyOf(members);
  }

  /**
   * A union whose members are told apart only by which one is set (a Volume's sources).
   *
   * @param typeName the schema definition of the struct
   * @param members every member field
   * @return the union, without a discriminator
   */
  public static Union of(String typeName, List<String> members) {
    return new Union(typeName, Optional.empty(), Map.of(), Set.copyOf(members));
  }

  /**
   * A union with a discriminator field and the member each of its values selects (a Deployment's
   * strategy: {@code type: RollingUpdate} selects {@code rollingUpdate}).
   *
   * @param typeName the schema definition of the struct
   * @param discriminator the field whose value selects the member
   * @param memberByValue the member each discriminator value selects; its values are the members
   * @return the union
   */
  public static Union discriminated(
      String typeName, String discriminator, Map<String, String> memberByValue) {
    return new Union(
        typeName, Optional.of(discriminator), memberByValue, Set.copyOf(memberByValue.values()));
  }

  /**
   * The members to clear from a merged struct, given what the writer sets: none when the writer
   * sets neither the discriminator nor a member.
   *
   * @param desired the struct as the writer sets it
   * @param present the fields the merged struct holds
   * @return the present members the writer does not select, sorted; empty when none must go
   */
  public Set<String> toClear(Map<?, ?> desired, Set<String> present) {
    Set<String> selected = new java.util.HashSet<>();
    boolean touched = false;
    for (String member : members) {
      if (desired.get(member) != null) {
        selected.add(member);
        touched = true;
      }
    }
    if (discriminator.isPresent() && desired.get(discriminator.get()) != null) {
      touched = true;
      String chosen = memberByValue.get(String.valueOf(desired.get(discriminator.get())));
      if (chosen != null) {
        selected.add(chosen);
      }
    }
    if (!touched) {
      return Set.of();
    }
    Set<String> clear = new java.util.TreeSet<>();
    for (String member : members) {
      if (present.contains(member) && !selected.contains(member)) {
        clear.add(member);
      }
    }
    return clear;
  }
}
