package dev.converge.testing.conformance.internal;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kinds the kit covers: Deployment, Service (ClusterIP, NodePort), ConfigMap, Secret,
 * StatefulSet, a custom resource.
 */
public final class Subjects {

  static final String REMOVABLE_LABEL = "metadata.labels.removable";
  static final String REMOVABLE_ANNOTATION = "metadata.annotations[\"example.com/removable\"]";
  private static final String FOREIGN_META =
      "\"metadata\":{\"labels\":{\"other.example/team\":\"blue\"},\"annotations\":{\"other.example/note\":\"keep\"}}";
  private static final List<String> FOREIGN_META_PATHS =
      List.of(
          "metadata.labels[\"other.example/team\"]",
          "metadata.annotations[\"other.example/note\"]");

  private Subjects() {}

  /** Every subject; the custom resource uses the given Widget CRD. */
  public static List<Subject> all(KitWidgetCrd widgets) {
    return List.of(
        deployment(),
        service(false),
        service(true),
        configMap(),
        secret(),
        statefulSet(),
        widget(widgets));
  }

  static Subject deployment() {
    return new Subject(
        "Deployment",
        "deploy",
        (ns, name, v) -> {
          Map<String, String> selector =
              v == Variant.IMMUTABLE_CHANGED
                  ? Map.of("app", name, "track", "canary")
                  : Map.of("app", name);
          List<EnvVar> env = new ArrayList<>(List.of(new EnvVar("MODE", "a", null)));
          if (v != Variant.WITHOUT_REMOVABLE) {
            env.add(new EnvVar("REMOVABLE", "yes", null));
          }
          return new DeploymentBuilder()
              .withMetadata(meta(ns, name, v))
              .withNewSpec()
              .withReplicas(v == Variant.CHANGED ? 2 : 1)
              .withNewSelector()
              .withMatchLabels(selector)
              .endSelector()
              .withTemplate(template(selector, env))
              .endSpec()
              .build();
        },
        "spec.replicas",
        "{\"spec\":{\"replicas\":3},\"metadata\":{\"labels\":{\"app\":\"hijacked\"}}}",
        "{" + FOREIGN_META + ",\"spec\":{\"minReadySeconds\":7}}",
        plus(FOREIGN_META_PATHS, "spec.minReadySeconds"),
        List.of(
            REMOVABLE_LABEL,
            REMOVABLE_ANNOTATION,
            "spec.template.spec.containers[name=app].env[name=REMOVABLE]"),
        "spec.selector",
        false);
  }

  static Subject statefulSet() {
    return new Subject(
        "StatefulSet",
        "sts",
        (ns, name, v) -> {
          Map<String, String> selector =
              v == Variant.IMMUTABLE_CHANGED
                  ? Map.of("app", name, "track", "canary")
                  : Map.of("app", name);
          return new StatefulSetBuilder()
              .withMetadata(meta(ns, name, v))
              .withNewSpec()
              .withServiceName(name)
              .withReplicas(v == Variant.CHANGED ? 2 : 1)
              .withNewSelector()
              .withMatchLabels(selector)
              .endSelector()
              .withTemplate(template(selector, List.of(new EnvVar("MODE", "a", null))))
              .endSpec()
              .build();
        },
        "spec.replicas",
        "{\"spec\":{\"replicas\":3},\"metadata\":{\"labels\":{\"app\":\"hijacked\"}}}",
        "{" + FOREIGN_META + ",\"spec\":{\"minReadySeconds\":7}}",
        plus(FOREIGN_META_PATHS, "spec.minReadySeconds"),
        List.of(REMOVABLE_LABEL, REMOVABLE_ANNOTATION),
        "spec.selector",
        false);
  }

  static Subject service(boolean nodePort) {
    return new Subject(
        nodePort ? "Service (NodePort)" : "Service (ClusterIP)",
        nodePort ? "svc-np" : "svc",
        (ns, name, v) ->
            new ServiceBuilder()
                .withMetadata(meta(ns, name, v))
                .withNewSpec()
                .withType(nodePort ? "NodePort" : "ClusterIP")
                .withSelector(Map.of("app", name))
                .withClusterIP(v == Variant.IMMUTABLE_CHANGED ? "10.0.0.250" : null)
                .withPorts(
                    new ServicePortBuilder()
                        .withName("http")
                        .withPort(80)
                        .withTargetPort(new IntOrString(v == Variant.CHANGED ? 8081 : 8080))
                        .build())
                .endSpec()
                .build(),
        "spec.ports",
        "{\"spec\":{\"selector\":{\"app\":\"hijacked\"}}}",
        "{" + FOREIGN_META + ",\"spec\":{\"sessionAffinity\":\"ClientIP\"}}",
        plus(FOREIGN_META_PATHS, "spec.sessionAffinity"),
        List.of(REMOVABLE_LABEL, REMOVABLE_ANNOTATION),
        "spec.clusterIP",
        true);
  }

  static Subject configMap() {
    return new Subject(
        "ConfigMap",
        "cm",
        (ns, name, v) -> {
          Map<String, String> data = new LinkedHashMap<>();
          data.put(
              "color", v == Variant.CHANGED || v == Variant.IMMUTABLE_CHANGED ? "blue" : "red");
          data.put("size", "m");
          if (v != Variant.WITHOUT_REMOVABLE) {
            data.put("removable", "yes");
          }
          return new ConfigMapBuilder()
              .withMetadata(meta(ns, name, v))
              .withData(data)
              .withImmutable(
                  (v == Variant.IMMUTABLE_BASE || v == Variant.IMMUTABLE_CHANGED)
                      ? Boolean.TRUE
                      : null)
              .build();
        },
        "data.color",
        "{\"data\":{\"color\":\"green\"}}",
        "{" + FOREIGN_META + ",\"data\":{\"other\":\"kept\"}}",
        plus(FOREIGN_META_PATHS, "data.other"),
        List.of(REMOVABLE_LABEL, REMOVABLE_ANNOTATION, "data.removable"),
        "data",
        false);
  }

  static Subject secret() {
    return new Subject(
        "Secret",
        "secret",
        (ns, name, v) -> {
          Map<String, String> data = new LinkedHashMap<>();
          data.put(
              "password",
              v == Variant.CHANGED || v == Variant.IMMUTABLE_CHANGED ? "s3cret-2" : "s3cret");
          if (v != Variant.WITHOUT_REMOVABLE) {
            data.put("removable", "yes");
          }
          return new SecretBuilder()
              .withMetadata(meta(ns, name, v))
              .withStringData(data)
              .withImmutable(
                  (v == Variant.IMMUTABLE_BASE || v == Variant.IMMUTABLE_CHANGED)
                      ? Boolean.TRUE
                      : null)
              .build();
        },
        "data.password",
        "{\"data\":{\"password\":\"aGlqYWNrZWQ=\"}}",
        "{" + FOREIGN_META + ",\"data\":{\"other\":\"a2VwdA==\"}}",
        plus(FOREIGN_META_PATHS, "data.other"),
        List.of(REMOVABLE_LABEL, REMOVABLE_ANNOTATION, "data.removable"),
        "data",
        false);
  }

  static Subject widget(KitWidgetCrd crd) {
    return new Subject(
        "Custom resource",
        "widget",
        (ns, name, v) -> {
          Map<String, Object> spec = new LinkedHashMap<>();
          spec.put("size", v == Variant.CHANGED ? 2 : 1);
          spec.put("color", "red");
          spec.put("mode", v == Variant.IMMUTABLE_CHANGED ? "slow" : "fast");
          if (v != Variant.WITHOUT_REMOVABLE) {
            spec.put("optional", "yes");
          }
          GenericKubernetesResource widget = new GenericKubernetesResource();
          widget.setApiVersion(crd.apiVersion());
          widget.setKind(KitWidgetCrd.KIND);
          widget.setMetadata(meta(ns, name, v));
          widget.setAdditionalProperty("spec", spec);
          return widget;
        },
        "spec.size",
        "{\"spec\":{\"color\":\"green\"}}",
        "{" + FOREIGN_META + ",\"spec\":{\"extra\":\"kept\"}}",
        plus(FOREIGN_META_PATHS, "spec.extra"),
        List.of(REMOVABLE_LABEL, REMOVABLE_ANNOTATION, "spec.optional"),
        "spec.mode",
        false);
  }

  private static ObjectMeta meta(String ns, String name, Variant v) {
    ObjectMetaBuilder meta =
        new ObjectMetaBuilder().withNamespace(ns).withName(name).addToLabels("app", name);
    if (v != Variant.WITHOUT_REMOVABLE) {
      meta.addToLabels("removable", "yes").addToAnnotations("example.com/removable", "yes");
    }
    return meta.build();
  }

  /**
   * A pod template as people write them: probes, requests and limits, affinity, tolerations, a
   * config volume, env from a value and from a field.
   */
  private static PodTemplateSpec template(Map<String, String> labels, List<EnvVar> env) {
    PodTemplateSpec template =
        Serialization.unmarshal(
            """
        metadata: {}
        spec:
          terminationGracePeriodSeconds: 20
          affinity:
            podAntiAffinity:
              preferredDuringSchedulingIgnoredDuringExecution:
              - weight: 50
                podAffinityTerm:
                  topologyKey: kubernetes.io/hostname
                  labelSelector:
                    matchLabels: {tier: web}
          tolerations:
          - {key: dedicated, operator: Equal, value: web, effect: NoSchedule}
          - {key: dedicated, operator: Equal, value: web, effect: NoExecute, tolerationSeconds: 60}
          volumes:
          - name: config
            configMap: {name: app-config, optional: true}
          containers:
          - name: app
            image: registry.example/app:1.0
            ports:
            - {name: http, containerPort: 8080}
            env:
            - name: POD_NAME
              valueFrom: {fieldRef: {fieldPath: metadata.name}}
            resources:
              requests: {cpu: 100m, memory: 64Mi}
              limits: {cpu: 500m, memory: 128Mi}
            readinessProbe:
              httpGet: {path: /ready, port: http}
              periodSeconds: 5
            livenessProbe:
              tcpSocket: {port: 8080}
              initialDelaySeconds: 10
            volumeMounts:
            - {name: config, mountPath: /etc/app, readOnly: true}
        """,
            PodTemplateSpec.class);
    template.getMetadata().setLabels(labels);
    template.getSpec().getContainers().get(0).getEnv().addAll(env);
    return template;
  }

  private static List<String> plus(List<String> list, String more) {
    List<String> out = new ArrayList<>(list);
    out.add(more);
    return List.copyOf(out);
  }
}
