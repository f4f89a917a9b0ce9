package dev.converge.schema;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one-of fields of the built-in kinds, by schema definition name. The server's OpenAPI does not
 * publish them, so they are listed here from the API types' validation rules; {@link #register}
 * adds more (a custom resource's own unions, a newer Kubernetes field).
 */
public final class Unions {

  private static final String CORE = "io.k8s.api.core.v1.";
  private static final Map<String, Union> KNOWN = new ConcurrentHashMap<>();

  static {
    for (String strategy :
        List.of(
            "io.k8s.api.apps.v1.DeploymentStrategy",
            "io.k8s.api.apps.v1.DaemonSetUpdateStrategy",
            "io.k8s.api.apps.v1.StatefulSetUpdateStrategy")) {
      register(Union.discriminated(strategy, "type", Map.of("RollingUpdate", "rollingUpdate")));
    }
    register(
        Union.of(
            CORE + "Volume",
            List.of(
                "hostPath",
                "emptyDir",
                "gcePersistentDisk",
                "awsElasticBlockStore",
                "gitRepo",
                "secret",
                "nfs",
                "iscsi",
                "glusterfs",
                "persistentVolumeClaim",
                "rbd",
                "flexVolume",
                "cinder",
                "cephfs",
                "flocker",
                "downwardAPI",
                "fc",
                "azureFile",
                "configMap",
                "vsphereVolume",
                "quobyte",
                "azureDisk",
                "photonPersistentDisk",
                "projected",
                "portworxVolume",
                "scaleIO",
                "storageos",
                "csi",
                "ephemeral",
                "image")));
    register(
        Union.of(
            CORE + "VolumeProjection",
            List.of(
                "secret",
                "downwardAPI",
                "configMap",
                "serviceAccountToken",
                "clusterTrustBundle",
                "podCertificate")));
    register(Union.of(CORE + "EnvVar", List.of("value", "valueFrom")));
    register(
        Union.of(
            CORE + "EnvVarSource",
            List.of(
                "fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef", "fileKeyRef")));
    register(Union.of(CORE + "EnvFromSource", List.of("configMapRef", "secretRef")));
    register(Union.of(CORE + "Probe", List.of("exec", "httpGet", "tcpSocket", "grpc")));
    register(Union.of(CORE + "LifecycleHandler", List.of("exec", "httpGet", "tcpSocket", "sleep")));
    register(
        Union.discriminated(
            CORE + "SeccompProfile", "type", Map.of("Localhost", "localhostProfile")));
    register(
        Union.discriminated(
            CORE + "AppArmorProfile", "type", Map.of("Localhost", "localhostProfile")));
    register(
        Union.discriminated(CORE + "ServiceSpec", "type", Map.of("ExternalName", "externalName")));
    register(Union.of("io.k8s.api.networking.v1.IngressBackend", List.of("service", "resource")));
    register(
        Union.discriminated(
            "io.k8s.api.autoscaling.v2.MetricSpec",
            "type",
            Map.of(
                "Resource",
                "resource",
                "Pods",
                "pods",
                "Object",
                "object",
                "External",
                "external",
                "ContainerResource",
                "containerResource")));
    register(
        Union.discriminated(
            "io.k8s.api.autoscaling.v2.MetricTarget",
            "type",
            Map.of(
                "Utilization",
                "averageUtilization",
                "Value",
                "value",
                "AverageValue",
                "averageValue")));
    register(
        Union.of(
            "io.k8s.api.batch.v1.PodFailurePolicyRule", List.of("onExitCodes", "onPodConditions")));
    register(
        Union.of(
            "io.k8s.api.policy.v1.PodDisruptionBudgetSpec",
            List.of("minAvailable", "maxUnavailable")));
    register(
        Union.of(
            CORE + "PersistentVolumeSource",
            List.of(
                "gcePersistentDisk",
                "awsElasticBlockStore",
                "hostPath",
                "glusterfs",
                "nfs",
                "rbd",
                "iscsi",
                "cinder",
                "cephfs",
                "fc",
                "flocker",
                "flexVolume",
                "azureFile",
                "vsphereVolume",
                "quobyte",
                "azureDisk",
                "photonPersistentDisk",
                "portworxVolume",
                "scaleIO",
                "local",
                "storageos",
                "csi")));
    register(
        Union.of(
            CORE + "PersistentVolumeSpec",
            List.of(
                "gcePersistentDisk",
                "awsElasticBlockStore",
                "hostPath",
                "glusterfs",
                "nfs",
                "rbd",
                "iscsi",
                "cinder",
                "cephfs",
                "fc",
                "flocker",
                "flexVolume",
                "azureFile",
                "vsphereVolume",
                "quobyte",
                "azureDisk",
                "photonPersistentDisk",
                "portworxVolume",
                "scaleIO",
                "local",
                "storageos",
                "csi")));
  }

  private Unions() {}

  /**
   * Adds or replaces the union of a schema definition, for every strategy in the process from then
   * on.
   *
   * @param union the union, keyed by its {@link Union#typeName()}
   */
  public static void register(Union union) {
    KNOWN.put(union.typeName(), union);
  }

  /**
   * The union of the struct with this definition name, if it has one.
   *
   * @param typeName a schema definition name, as {@link MapSchema#typeName()} gives it
   * @return the union; empty for an anonymous schema or a struct without one
   */
  public static Optional<Union> of(String typeName) {
    return typeName.isEmpty() ? Optional.empty() : Optional.ofNullable(KNOWN.get(typeName));
  }
}
