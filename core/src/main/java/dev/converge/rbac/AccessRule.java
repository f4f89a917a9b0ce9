package dev.converge.rbac;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Verbs an operator needs on one resource (or subresource, {@code appdeployments/status}) of one
 * API group, and why.
 *
 * @param group the API group; empty for the core group
 * @param resource the plural resource name, with {@code /subresource} where it applies
 * @param namespaced whether the resource lives in namespaces (access is then checked per watched
 *     namespace)
 * @param verbs the RBAC verbs, sorted
 * @param reasons what in the operator uses them, one line each, sorted
 */
public record AccessRule(
    String group,
    String resource,
    boolean namespaced,
    SortedSet<String> verbs,
    SortedSet<String> reasons) {

  /** The verbs an RBAC rule may name for a resource, the special ones included. */
  public static final Set<String> KNOWN_VERBS =
      Set.of(
          "get",
          "list",
          "watch",
          "create",
          "update",
          "patch",
          "delete",
          "deletecollection",
          "bind",
          "escalate",
          "impersonate",
          "use",
          "approve",
          "sign");

  /**
   * Checks the rule and keeps sorted, unmodifiable copies of its sets, so that a rule compares,
   * prints and generates the same however it was assembled.
   *
   * @param group the API group; empty for the core group
   * @param resource the plural resource name, with {@code /subresource} where it applies
   * @param namespaced whether the resource lives in namespaces
   * @param verbs the RBAC verbs
   * @param reasons what in the operator uses them, one line each
   * @throws NullPointerException if {@code group}, {@code resource}, {@code verbs} or {@code
   *     reasons} is null
   * @throws IllegalArgumentException if {@code resource} is blank, {@code verbs} is empty or holds
   *     a word that is no RBAC verb (the message names the verb, the resource and the known verbs)
   */
  public AccessRule {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(resource, "resource");
    if (resource.isBlank()) {
      throw new IllegalArgumentException("an access rule needs a resource");
    }
    verbs = unmodifiable(verbs);
    reasons = unmodifiable(reasons);
    if (verbs.isEmpty()) {
      throw new IllegalArgumentException("an access rule on " + resource + " needs a verb");
    }
    for (String verb : verbs) {
      if (!KNOWN_VERBS.contains(verb)) {
        throw new IllegalArgumentException(
            "'"
                + verb
                + "' is not an RBAC verb for "
                + resource
                + "; expected one of "
                + new TreeSet<>(KNOWN_VERBS));
      }
    }
  }

  /**
   * {@code verbs} on the resource of {@code type} (or its {@code subresource}, when not empty),
   * with group, plural and scope taken from the class as fabric8 maps it to the API.
   *
   * @param type the model class of the kind
   * @param subresource a subresource such as {@code status} or {@code finalizers}; null or empty
   *     for the resource itself
   * @param verbs the RBAC verbs needed
   * @param reason what in the operator needs them, shown beside the rule in generated roles and in
   *     the report of missing access
   * @return the rule
   * @throws IllegalArgumentException if {@code verbs} is empty or holds a word that is no RBAC verb
   */
  public static AccessRule on(
      Class<? extends HasMetadata> type,
      String subresource,
      Collection<String> verbs,
      String reason) {
    String plural =
        HasMetadata.getPlural(type)
            + (subresource == null || subresource.isEmpty() ? "" : "/" + subresource);
    return new AccessRule(
        Objects.toString(HasMetadata.getGroup(type), ""),
        plural,
        Namespaced.class.isAssignableFrom(type),
        new TreeSet<>(verbs),
        new TreeSet<>(List.of(reason)));
  }

  /**
   * The resource as messages and the comments of generated roles name it: {@code deployments.apps},
   * {@code services}, {@code appdeployments.apps.converge.dev/status}.
   *
   * @return the plural, then the group when it is not the core group, then the subresource
   */
  public String qualifiedResource() {
    int slash = resource.indexOf('/');
    String base = slash < 0 ? resource : resource.substring(0, slash);
    String sub = slash < 0 ? "" : resource.substring(slash);
    return base + (group.isEmpty() ? "" : "." + group) + sub;
  }

  /**
   * This rule with {@code other}'s verbs and reasons added (same group and resource), so that what
   * several parts of an operator need on one resource becomes one rule that still says who needs
   * what.
   *
   * @param other a rule on the same group and resource
   * @return a new rule; namespaced when either rule is
   * @throws IllegalArgumentException if {@code other} is on another group or resource, naming both
   */
  public AccessRule merge(AccessRule other) {
    if (!group.equals(other.group) || !resource.equals(other.resource)) {
      throw new IllegalArgumentException(
          "cannot merge rules on " + qualifiedResource() + " and " + other.qualifiedResource());
    }
    SortedSet<String> allVerbs = new TreeSet<>(verbs);
    allVerbs.addAll(other.verbs);
    SortedSet<String> allReasons = new TreeSet<>(reasons);
    allReasons.addAll(other.reasons);
    return new AccessRule(group, resource, namespaced || other.namespaced, allVerbs, allReasons);
  }

  private static SortedSet<String> unmodifiable(SortedSet<String> values) {
    return java.util.Collections.unmodifiableSortedSet(
        new TreeSet<>(Objects.requireNonNull(values)));
  }
}
