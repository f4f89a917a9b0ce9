package dev.converge.testing.conformance;

/**
 * Cases where writing desired state is easy to get wrong, each checked on realistic objects of the
 * kinds it concerns, with expected live values written out by path (see {@link Expectation}). Every
 * case also checks that no valid change is refused and that applying the same desired again sends
 * no write.
 */
public enum ConformanceCase {
  NUMBER_LIKE_STRINGS(
      "number-like-strings",
      "strings that look like numbers change (\"1.1\"→\"1.10\", \"010\"→\"10\") in data, labels, annotations, env"),
  EMPTY_VALUES(
      "empty-values",
      "a label, annotation or data key added with the value \"\" is written and kept"),
  DROPPED_PROBE_AND_LIMITS(
      "dropped-probe-and-limits",
      "a container's livenessProbe and resources.limits dropped from desired are gone from live"),
  SELECTOR_KEY_REMOVED(
      "selector-key-removed",
      "a key dropped from a selector or another atomic map ({app, version}→{app}) is gone"),
  FOREIGN_FINALIZER(
      "foreign-finalizer",
      "another client's finalizer survives every apply, and it causes no write"),
  EXPLICIT_EMPTY_CLUSTER_IP(
      "explicit-empty-cluster-ip",
      "clusterIP: \"\" in desired: the server allocates one, and no apply writes again"),
  UPDATE_STRATEGY_SWITCH(
      "update-strategy-switch",
      "RollingUpdate→Recreate/OnDelete with server-defaulted and with desired-set parameters is accepted"),
  ENV_VALUE_TO_VALUE_FROM(
      "env-value-to-value-from", "an env var switching from value to valueFrom (and back)"),
  VOLUME_SOURCE_SWITCH(
      "volume-source-switch", "a volume switching from configMap to secret under the same name"),
  PROBE_HANDLER_SWITCH(
      "probe-handler-switch", "a probe switching from tcpSocket to httpGet to exec"),
  TOLERATIONS_REORDERED(
      "tolerations-reordered", "two tolerations with the same key, in the other order"),
  LARGE_CONFIGMAP(
      "large-configmap", "a ConfigMap of 6,000 keys of 40 characters: create, change, no-op"),
  SERVICE_TYPE_CHANGES(
      "service-type-changes",
      "Service type changes ClusterIP→NodePort→LoadBalancer→ClusterIP→ExternalName→ClusterIP, and a headless Service"),
  CUSTOM_RESOURCE_LISTS(
      "custom-resource-lists",
      "list-type map, set and atomic lists, granular and atomic maps of a custom resource; another actor's elements"),
  SUBRESOURCE_OWNER(
      "subresource-owner",
      "spec.replicas another writer set through /scale (an autoscaler, kubectl scale) stays when desired stops setting it"),
  CO_OWNED_VALUES(
      "co-owned-values",
      "a value desired drops that another writer owns too stays: an annotation, a set element and a map-list element another applier applied as well, spec.replicas another update set"),
  EXPLICIT_EMPTY_LISTS(
      "explicit-empty-lists",
      "lists desired sets explicitly empty (map lists, sets, atomic lists; built-in and x-kubernetes-list-type): written once, then no apply writes again"),
  REALISTIC_ROUND_TRIP(
      "realistic-round-trip",
      "each corpus kind: create, another actor's changes, a change with removals; judged against a fresh create");

  private final String caseName;
  private final String description;

  ConformanceCase(String caseName, String description) {
    this.caseName = caseName;
    this.description = description;
  }

  /** The name used in reports and declared limits. */
  public String caseName() {
    return caseName;
  }

  /** What the case checks. */
  public String description() {
    return description;
  }
}
