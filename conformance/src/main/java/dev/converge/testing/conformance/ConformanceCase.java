package dev.converge.testing.conformance;

/**
 * Cases where writing desired state is easy to get wrong, each checked on realistic objects of the
 * kinds it concerns, with expected live values written out by path (see {@link Expectation}). Every
 * case also checks that no valid change is refused and that applying the same desired again sends
 * no write.
 */
public enum ConformanceCase {
  /** Strings that look like numbers keep their exact text, not a number's, when they change. */
  NUMBER_LIKE_STRINGS(
      "number-like-strings",
      "strings that look like numbers change (\"1.1\"→\"1.10\", \"010\"→\"10\") in data, labels, annotations, env"),
  /**
   * An empty string is a value: a label, annotation or data entry set to it is written and kept.
   */
  EMPTY_VALUES(
      "empty-values",
      "a label, annotation or data key added with the value \"\" is written and kept"),
  /** Fields dropped from desired (a probe, resource limits) are removed from live. */
  DROPPED_PROBE_AND_LIMITS(
      "dropped-probe-and-limits",
      "a container's livenessProbe and resources.limits dropped from desired are gone from live"),
  /** A key dropped from an atomic map, such as a selector, is removed from live. */
  SELECTOR_KEY_REMOVED(
      "selector-key-removed",
      "a key dropped from a selector or another atomic map ({app, version}→{app}) is gone"),
  /** Another client's finalizer survives every apply and causes no write. */
  FOREIGN_FINALIZER(
      "foreign-finalizer",
      "another client's finalizer survives every apply, and it causes no write"),
  /**
   * An explicitly empty {@code clusterIP} lets the server allocate one, without a write at every
   * apply.
   */
  EXPLICIT_EMPTY_CLUSTER_IP(
      "explicit-empty-cluster-ip",
      "clusterIP: \"\" in desired: the server allocates one, and no apply writes again"),
  /**
   * A workload's update strategy can be switched, whether its parameters were defaulted by the
   * server or set in desired.
   */
  UPDATE_STRATEGY_SWITCH(
      "update-strategy-switch",
      "RollingUpdate→Recreate/OnDelete with server-defaulted and with desired-set parameters is accepted"),
  /** An env var can switch between {@code value} and {@code valueFrom}. */
  ENV_VALUE_TO_VALUE_FROM(
      "env-value-to-value-from", "an env var switching from value to valueFrom (and back)"),
  /** A volume can switch its source under the same name. */
  VOLUME_SOURCE_SWITCH(
      "volume-source-switch", "a volume switching from configMap to secret under the same name"),
  /** A probe can switch its handler. */
  PROBE_HANDLER_SWITCH(
      "probe-handler-switch", "a probe switching from tcpSocket to httpGet to exec"),
  /** Two tolerations with the same key, given in the other order, are stored in the new order. */
  TOLERATIONS_REORDERED(
      "tolerations-reordered", "two tolerations with the same key, in the other order"),
  /** A large ConfigMap is created, changed and left alone without trouble. */
  LARGE_CONFIGMAP(
      "large-configmap", "a ConfigMap of 6,000 keys of 40 characters: create, change, no-op"),
  /** A Service can change its type in every direction, and be headless. */
  SERVICE_TYPE_CHANGES(
      "service-type-changes",
      "Service type changes ClusterIP→NodePort→LoadBalancer→ClusterIP→ExternalName→ClusterIP, and a headless Service"),
  /** A custom resource's lists and maps merge by their schema's list and map types. */
  CUSTOM_RESOURCE_LISTS(
      "custom-resource-lists",
      "list-type map, set and atomic lists, granular and atomic maps of a custom resource; another actor's elements"),
  /**
   * A value another writer set through a subresource ({@code /scale}) stays when desired stops
   * setting it.
   */
  SUBRESOURCE_OWNER(
      "subresource-owner",
      "spec.replicas another writer set through /scale (an autoscaler, kubectl scale) stays when desired stops setting it"),
  /** A value desired drops stays when another writer owns it too. */
  CO_OWNED_VALUES(
      "co-owned-values",
      "a value desired drops that another writer owns too stays: an annotation, a set element and a map-list element another applier applied as well, spec.replicas another update set"),
  /** Lists desired sets explicitly empty are written once, and no apply writes again. */
  EXPLICIT_EMPTY_LISTS(
      "explicit-empty-lists",
      "lists desired sets explicitly empty (map lists, sets, atomic lists; built-in and x-kubernetes-list-type): written once, then no apply writes again"),
  /**
   * Realistic objects of every corpus kind survive another actor's changes and a change with
   * removals, judged against a fresh create.
   */
  REALISTIC_ROUND_TRIP(
      "realistic-round-trip",
      "each corpus kind: create, another actor's changes, a change with removals; judged against a fresh create");

  private final String caseName;
  private final String description;

  ConformanceCase(String caseName, String description) {
    this.caseName = caseName;
    this.description = description;
  }

  /**
   * The name used in reports and declared limits.
   *
   * @return the case's kebab-case name, such as {@code empty-values}
   */
  public String caseName() {
    return caseName;
  }

  /**
   * What the case checks, as one line of a report.
   *
   * @return the description
   */
  public String description() {
    return description;
  }
}
