package dev.converge.testing.conformance.fuzz.internal;

import dev.converge.testing.conformance.FieldPath;
import dev.converge.testing.conformance.internal.JsonValue;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The realistic objects the fuzzer and the round-trip case start from: Deployment, StatefulSet,
 * DaemonSet, CronJob (with probes, requests and limits, affinity, tolerations, volumes, env),
 * Service of each type, ConfigMap, Secret, Ingress, HorizontalPodAutoscaler (autoscaling/v2, four
 * metric types), PodDisruptionBudget, Role, RoleBinding, ServiceAccount, a suspended Job,
 * NetworkPolicy, ResourceQuota, LimitRange and the kit's Widget custom resource (list-map, set and
 * atomic lists, granular and atomic maps).
 */
public final class Corpus {

  private static final String DIR = "/dev/converge/testing/conformance/corpus/";
  private static final String POD = "spec.template.spec";
  private static final String JOB_POD = "spec.jobTemplate.spec.template.spec";

  /** What a load-balancer controller writes into an Ingress's status. */
  private static final Map<String, Object> LOAD_BALANCER_ADDRESS =
      Map.of("/status/loadBalancer", Map.of("ingress", List.of(Map.of("ip", "203.0.113.10"))));

  private final String widgetApiVersion;

  /**
   * A corpus whose Widgets have the given apiVersion (the kit's CRD lives in a group unique to a
   * run).
   */
  public Corpus(String widgetApiVersion) {
    this.widgetApiVersion = widgetApiVersion;
  }

  /** Every kind. */
  public List<CorpusKind> kinds() {
    List<FieldPath> always = paths("apiVersion", "kind", "metadata.name", "metadata.namespace");
    return List.of(
        new CorpusKind(
                "Deployment",
                "deploy",
                "deployment.yaml",
                plus(always, "spec.selector", "spec.template.metadata.labels.app"),
                concat(
                    podUnions(POD),
                    List.of(
                        set(
                            "switch spec.strategy to Recreate",
                            "spec.strategy",
                            Map.of("type", "Recreate")),
                        set(
                            "set spec.strategy to RollingUpdate maxSurge 1 maxUnavailable 0",
                            "spec.strategy",
                            Map.of(
                                "type",
                                "RollingUpdate",
                                "rollingUpdate",
                                Map.of("maxSurge", 1, "maxUnavailable", 0))))),
                Map.of("/spec/minReadySeconds", 7, "/spec/progressDeadlineSeconds", 900))
            .withScale(),
        new CorpusKind(
                "StatefulSet",
                "sts",
                "statefulset.yaml",
                plus(
                    always,
                    "spec.selector",
                    "spec.serviceName",
                    "spec.template.metadata.labels.app"),
                concat(
                    podUnions(POD),
                    List.of(
                        set(
                            "switch spec.updateStrategy to OnDelete",
                            "spec.updateStrategy",
                            Map.of("type", "OnDelete")))),
                Map.of("/spec/minReadySeconds", 5))
            .withScale(),
        new CorpusKind(
            "DaemonSet",
            "ds",
            "daemonset.yaml",
            plus(always, "spec.selector", "spec.template.metadata.labels.app"),
            concat(
                podUnions(POD),
                List.of(
                    set(
                        "switch spec.updateStrategy to OnDelete",
                        "spec.updateStrategy",
                        Map.of("type", "OnDelete")))),
            Map.of("/spec/minReadySeconds", 5)),
        new CorpusKind(
            "CronJob",
            "cron",
            "cronjob.yaml",
            plus(always, "spec.schedule"),
            concat(
                podUnions(JOB_POD),
                List.of(
                    set(
                        "set spec.concurrencyPolicy = Replace",
                        "spec.concurrencyPolicy",
                        "Replace"))),
            Map.of("/spec/startingDeadlineSeconds", 100)),
        service(
            "ClusterIP",
            "svc",
            "service-clusterip.yaml",
            List.of(set("switch spec.type to NodePort", "spec.type", "NodePort"), externalName())),
        service(
            "NodePort",
            "svc-np",
            "service-nodeport.yaml",
            List.of(
                set("switch spec.type to ClusterIP", "spec.type", "ClusterIP"),
                set("switch spec.type to LoadBalancer", "spec.type", "LoadBalancer"))),
        service(
            "LoadBalancer",
            "svc-lb",
            "service-loadbalancer.yaml",
            List.of(
                new Mutation(
                    "switch spec.type to ClusterIP (without externalTrafficPolicy)",
                    t -> {
                      FieldPath.of("spec.type").set(t, "ClusterIP");
                      FieldPath.of("spec.externalTrafficPolicy").remove(t);
                    }))),
        new CorpusKind(
            "Service (ExternalName)",
            "svc-ext",
            "service-externalname.yaml",
            always,
            List.of(
                new Mutation(
                    "switch spec.type to ClusterIP (without externalName)",
                    t -> {
                      FieldPath.of("spec.type").set(t, "ClusterIP");
                      FieldPath.of("spec.externalName").remove(t);
                    })),
            Map.of()),
        new CorpusKind(
            "Service (headless)",
            "svc-hl",
            "service-headless.yaml",
            plus(always, "spec.clusterIP"),
            List.of(),
            Map.of("/spec/sessionAffinity", "ClientIP")),
        new CorpusKind(
            "ConfigMap",
            "cm",
            "configmap.yaml",
            always,
            List.of(),
            Map.of("/data/foreign-key", "x")),
        new CorpusKind(
            "Secret",
            "secret",
            "secret.yaml",
            plus(always, "type"),
            List.of(),
            Map.of("/data/foreign-key", "eA==")),
        new CorpusKind(
                "Ingress",
                "ing",
                "ingress.yaml",
                always,
                List.of(
                    set(
                        "switch the first backend's port from number to name",
                        "spec.rules[0].http.paths[0].backend.service.port",
                        Map.of("name", "http"))),
                Map.of("/spec/ingressClassName", "other"))
            .withStatus(LOAD_BALANCER_ADDRESS),
        new CorpusKind(
            "HorizontalPodAutoscaler",
            "hpa",
            "hpa.yaml",
            always,
            List.of(
                set(
                    "switch the cpu target from Utilization to AverageValue",
                    "spec.metrics[0].resource.target",
                    Map.of("type", "AverageValue", "averageValue", "500m")),
                set(
                    "switch the external target from Value to AverageValue",
                    "spec.metrics[3].external.target",
                    Map.of("type", "AverageValue", "averageValue", "10"))),
            Map.of()),
        new CorpusKind(
            "PodDisruptionBudget",
            "pdb",
            "pdb.yaml",
            always,
            List.of(
                new Mutation(
                    "switch spec.minAvailable to spec.maxUnavailable = 1",
                    t -> {
                      FieldPath.of("spec.minAvailable").remove(t);
                      FieldPath.of("spec.maxUnavailable").set(t, 1);
                    }),
                set("set spec.minAvailable = \"50%\"", "spec.minAvailable", "50%")),
            Map.of("/spec/unhealthyPodEvictionPolicy", "AlwaysAllow")),
        new CorpusKind("Role", "role", "role.yaml", always, List.of(), Map.of()),
        new CorpusKind(
            "RoleBinding", "rb", "rolebinding.yaml", plus(always, "roleRef"), List.of(), Map.of()),
        new CorpusKind("ServiceAccount", "sa", "serviceaccount.yaml", always, List.of(), Map.of()),
        // suspended for good: a Job that ran would finish and be deleted by its TTL mid-sequence;
        // labels fixed: a Job created without labels takes its template's, so a fresh create is no
        // judge of labels dropped from desired while another writer's label stays
        new CorpusKind(
            "Job",
            "job",
            "job.yaml",
            plus(
                always,
                "metadata.labels",
                "spec.suspend",
                "spec.template",
                "spec.completions",
                "spec.selector"),
            List.of(),
            Map.of("/spec/podReplacementPolicy", "Failed")),
        new CorpusKind(
            "NetworkPolicy",
            "netpol",
            "networkpolicy.yaml",
            always,
            List.of(
                set(
                    "switch the egress peer from ipBlock to podSelector",
                    "spec.egress[0].to[0]",
                    Map.of("podSelector", Map.of("matchLabels", Map.of("role", "db"))))),
            Map.of()),
        new CorpusKind("ResourceQuota", "quota", "resourcequota.yaml", always, List.of(), Map.of()),
        new CorpusKind("LimitRange", "limits", "limitrange.yaml", always, List.of(), Map.of()),
        new CorpusKind(
                "Custom resource",
                "widget",
                "widget.yaml",
                plus(always, "spec.mode"),
                List.of(),
                Map.of("/spec/extra", "kept"))
            .withScale()
            .withStatus(Map.of("/status/phase", "Ready")));
  }

  /** The kind labelled {@code label}. */
  public CorpusKind kind(String label) {
    return kinds().stream()
        .filter(k -> k.label().equals(label))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no corpus kind " + label));
  }

  /** The kind's object named {@code name} in {@code namespace}, as a mutable JSON tree. */
  @SuppressWarnings("unchecked")
  public Map<String, Object> object(CorpusKind kind, String namespace, String name) {
    Map<String, Object> tree = yaml(kind.file(), name);
    ((Map<String, Object>) tree.get("metadata")).put("namespace", namespace);
    for (String pod : List.of(POD, JOB_POD)) {
      FieldPath at = FieldPath.of(pod);
      Object placeholder = at.get(tree).orElse(null);
      if ("POD".equals(placeholder) || "POD_JOB".equals(placeholder)) {
        Map<String, Object> spec = yaml("pod-spec.yaml", name);
        if ("POD_JOB".equals(placeholder)) {
          spec.put("restartPolicy", "OnFailure");
        }
        at.set(tree, spec);
      }
    }
    return tree;
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> yaml(String file, String name) {
    try (InputStream in = Corpus.class.getResourceAsStream(DIR + file)) {
      if (in == null) {
        throw new IllegalStateException(
            "corpus file " + DIR + file + " is missing from the classpath");
      }
      String text =
          new String(in.readAllBytes(), StandardCharsets.UTF_8)
              .replace("__NAME__", name)
              .replace("WIDGET_API", widgetApiVersion);
      return JsonValue.copy(
          (Map<String, Object>) Serialization.unmarshal(text, LinkedHashMap.class));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read corpus file " + file, e);
    }
  }

  private static CorpusKind service(
      String type, String shortName, String file, List<Mutation> unions) {
    return new CorpusKind(
        "Service (" + type + ")",
        shortName,
        file,
        paths("apiVersion", "kind", "metadata.name", "metadata.namespace", "spec.clusterIP"),
        unions,
        Map.of("/spec/sessionAffinity", "ClientIP"));
  }

  private static Mutation externalName() {
    return new Mutation(
        "switch spec.type to ExternalName db.example.com (without selector)",
        t -> {
          FieldPath.of("spec.type").set(t, "ExternalName");
          FieldPath.of("spec.externalName").set(t, "db.example.com");
          FieldPath.of("spec.selector").remove(t);
        });
  }

  /** One-of switches inside a pod spec at {@code pod}. */
  private static List<Mutation> podUnions(String pod) {
    String web = pod + ".containers[name=web]";
    return List.of(
        set(
            "switch env LEVEL from value to valueFrom",
            web + ".env[name=LEVEL]",
            Map.of(
                "name",
                "LEVEL",
                "valueFrom",
                Map.of("configMapKeyRef", Map.of("name", "app-config", "key", "level")))),
        set(
            "switch env POD_NAME from valueFrom to value",
            web + ".env[name=POD_NAME]",
            Map.of("name", "POD_NAME", "value", "fixed")),
        set(
            "switch volume config from configMap to secret",
            pod + ".volumes[name=config]",
            Map.of("name", "config", "secret", Map.of("secretName", "app-secret"))),
        set(
            "switch volume cache from emptyDir to configMap",
            pod + ".volumes[name=cache]",
            Map.of("name", "cache", "configMap", Map.of("name", "cache-seed"))),
        new Mutation(
            "switch web's livenessProbe from tcpSocket to exec",
            t -> {
              FieldPath probe = FieldPath.of(web + ".livenessProbe");
              if (probe.get(t).isPresent()) {
                FieldPath.of(web + ".livenessProbe.tcpSocket").remove(t);
                FieldPath.of(web + ".livenessProbe.exec")
                    .set(t, JsonValue.copy(Map.of("command", List.of("/bin/check"))));
              }
            }),
        new Mutation(
            "switch web's readinessProbe from httpGet to grpc",
            t -> {
              FieldPath probe = FieldPath.of(web + ".readinessProbe");
              if (probe.get(t).isPresent()) {
                FieldPath.of(web + ".readinessProbe.httpGet").remove(t);
                FieldPath.of(web + ".readinessProbe.grpc")
                    .set(t, JsonValue.copy(Map.of("port", 9090)));
              }
            }),
        new Mutation(
            "reverse the order of " + pod + ".tolerations",
            t -> {
              if (FieldPath.of(pod + ".tolerations").get(t).orElse(null) instanceof List<?> list) {
                List<Object> reversed = new ArrayList<>(list);
                java.util.Collections.reverse(reversed);
                FieldPath.of(pod + ".tolerations").set(t, reversed);
              }
            }),
        new Mutation(
            "set " + pod + ".imagePullSecrets = []",
            t -> {
              if (FieldPath.of(pod).get(t).isPresent()) {
                FieldPath.of(pod + ".imagePullSecrets").set(t, new ArrayList<>());
              }
            }),
        new Mutation(
            "drop web's livenessProbe and resources.limits",
            t -> {
              FieldPath.of(web + ".livenessProbe").remove(t);
              FieldPath.of(web + ".resources.limits").remove(t);
            }));
  }

  private static Mutation set(String description, String path, Object value) {
    FieldPath at = FieldPath.of(path);
    return new Mutation(
        description,
        t -> {
          if (at.parent().flatMap(p -> p.get(t)).isPresent() || at.steps().size() == 1) {
            at.set(t, JsonValue.copy(value));
          }
        });
  }

  private static List<FieldPath> paths(String... paths) {
    return Stream.of(paths).map(FieldPath::of).toList();
  }

  private static List<FieldPath> plus(List<FieldPath> base, String... more) {
    return concat(base, paths(more));
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
