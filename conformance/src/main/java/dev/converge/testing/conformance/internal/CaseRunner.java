package dev.converge.testing.conformance.internal;

import static dev.converge.testing.conformance.Expectation.absent;
import static dev.converge.testing.conformance.Expectation.contains;
import static dev.converge.testing.conformance.Expectation.equal;
import static dev.converge.testing.conformance.Expectation.lacks;
import static dev.converge.testing.conformance.Expectation.presentOtherThan;

import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.DirectStrategyContext;
import dev.converge.testing.conformance.ConformanceCase;
import dev.converge.testing.conformance.ConformanceTarget;
import dev.converge.testing.conformance.Expectation;
import dev.converge.testing.conformance.FieldPath;
import dev.converge.testing.conformance.Judge;
import dev.converge.testing.conformance.WriteCounter;
import dev.converge.testing.conformance.fuzz.internal.Corpus;
import dev.converge.testing.conformance.fuzz.internal.CorpusKind;
import dev.converge.testing.conformance.fuzz.internal.Plan;
import dev.converge.testing.conformance.fuzz.internal.SequenceRunner;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs the {@link ConformanceCase}s on realistic objects (the fuzzer's corpus) against the real API
 * server. Each case writes its expected live values out by path; every apply must be accepted, and
 * the same desired applied again must send no write.
 */
public final class CaseRunner {

  /** One case on one subject. */
  public record CaseRun(ConformanceCase check, String subject, Body body) {}

  /** The steps of one case run; returns a short note of what was observed. */
  @FunctionalInterface
  public interface Body {
    String run(String name);
  }

  private static final String WEB = "spec.template.spec.containers[name=web]";

  /** The field manager of the other actor's writes through /scale. */
  private static final String SCALER = "conformance-autoscaler";

  private static final String JOB_WEB = "spec.jobTemplate.spec.template.spec.containers[name=web]";

  private final ConformanceTarget target;
  private final KubernetesClient strategyClient;
  private final WriteCounter counter;
  private final KubernetesClient other;
  private final Judge judge;
  private final String namespace;
  private final Corpus corpus;

  public CaseRunner(
      ConformanceTarget target,
      KubernetesClient strategyClient,
      WriteCounter counter,
      KubernetesClient other,
      String namespace,
      Corpus corpus) {
    this.target = target;
    this.strategyClient = strategyClient;
    this.counter = counter;
    this.other = other;
    this.judge = new Judge(other);
    this.namespace = namespace;
    this.corpus = corpus;
  }

  /** Every case run, in report order. */
  public List<CaseRun> runs() {
    List<CaseRun> runs = new ArrayList<>();
    // number-like strings
    runs.add(
        run(
            ConformanceCase.NUMBER_LIKE_STRINGS,
            "ConfigMap",
            name ->
                change(
                    name,
                    "ConfigMap",
                    t -> {
                      FieldPath.of("data.version").set(t, "1.10");
                      FieldPath.of("data.code").set(t, "10");
                      FieldPath.of("metadata.labels.release").set(t, "1.10");
                    },
                    equal("data.version", "1.10"),
                    equal("data.code", "10"),
                    equal("metadata.labels.release", "1.10"))));
    runs.add(
        run(
            ConformanceCase.NUMBER_LIKE_STRINGS,
            "Deployment",
            name ->
                change(
                    name,
                    "Deployment",
                    t -> {
                      FieldPath.of("metadata.annotations[\"example.com/revision\"]").set(t, "10");
                      FieldPath.of(WEB + ".env[name=RELEASE].value").set(t, "1.10");
                    },
                    equal("metadata.annotations[\"example.com/revision\"]", "10"),
                    equal(WEB + ".env[name=RELEASE].value", "1.10"))));
    runs.add(
        run(
            ConformanceCase.NUMBER_LIKE_STRINGS,
            "Secret",
            name -> {
              Map<String, Object> v1 = corpus.object(kind("Secret"), namespace, name);
              v1.put("stringData", new LinkedHashMap<>(Map.of("ratio", "1.1")));
              Map<String, Object> v2 = JsonValue.copy(v1);
              FieldPath.of("stringData.ratio").set(v2, "1.10");
              return steps(
                  List.of(v1, v2),
                  List.of(
                      List.of(equal("data.ratio", base64("1.1"))),
                      List.of(equal("data.ratio", base64("1.10")))));
            }));
    runs.add(
        run(
            ConformanceCase.NUMBER_LIKE_STRINGS,
            "Custom resource",
            name ->
                change(
                    name,
                    "Custom resource",
                    t -> {
                      FieldPath.of("spec.settings.ratio").set(t, "1.10");
                      FieldPath.of("spec.template.containers[name=main].env[name=ZONE].value")
                          .set(t, "10");
                    },
                    equal("spec.settings.ratio", "1.10"),
                    equal("spec.template.containers[name=main].env[name=ZONE].value", "10"))));
    // empty values
    runs.add(
        run(
            ConformanceCase.EMPTY_VALUES,
            "ConfigMap",
            name ->
                change(
                    name,
                    "ConfigMap",
                    t -> {
                      FieldPath.of("metadata.labels.tier").set(t, "");
                      FieldPath.of("metadata.annotations[\"example.com/flag\"]").set(t, "");
                      FieldPath.of("data.blank").set(t, "");
                    },
                    equal("metadata.labels.tier", ""),
                    equal("metadata.annotations[\"example.com/flag\"]", ""),
                    equal("data.blank", ""))));
    runs.add(
        run(
            ConformanceCase.EMPTY_VALUES,
            "Service (ClusterIP)",
            name ->
                change(
                    name,
                    "Service (ClusterIP)",
                    t -> {
                      FieldPath.of("metadata.labels.canary").set(t, "");
                      FieldPath.of("metadata.annotations[\"example.com/flag\"]").set(t, "");
                    },
                    equal("metadata.labels.canary", ""),
                    equal("metadata.annotations[\"example.com/flag\"]", ""))));
    runs.add(
        run(
            ConformanceCase.EMPTY_VALUES,
            "Deployment",
            name ->
                change(
                    name,
                    "Deployment",
                    t ->
                        FieldPath.of("spec.template.metadata.annotations[\"example.com/flag\"]")
                            .set(t, ""),
                    equal("spec.template.metadata.annotations[\"example.com/flag\"]", ""))));
    // dropped probe and limits
    for (String kind : List.of("Deployment", "StatefulSet", "DaemonSet", "CronJob")) {
      String web = kind.equals("CronJob") ? JOB_WEB : WEB;
      runs.add(
          run(
              ConformanceCase.DROPPED_PROBE_AND_LIMITS,
              kind,
              name ->
                  change(
                      name,
                      kind,
                      t -> {
                        FieldPath.of(web + ".livenessProbe").remove(t);
                        FieldPath.of(web + ".resources.limits").remove(t);
                      },
                      absent(web + ".livenessProbe"),
                      absent(web + ".resources.limits"),
                      equal(web + ".resources.requests.cpu", "100m"),
                      equal(web + ".readinessProbe.periodSeconds", 5))));
    }
    // selector key removed
    runs.add(
        run(
            ConformanceCase.SELECTOR_KEY_REMOVED,
            "Service (ClusterIP)",
            name ->
                change(
                    name,
                    "Service (ClusterIP)",
                    t -> FieldPath.of("spec.selector.version").remove(t),
                    equal("spec.selector", Map.of("app", name)))));
    runs.add(
        run(
            ConformanceCase.SELECTOR_KEY_REMOVED,
            "PodDisruptionBudget",
            name ->
                change(
                    name,
                    "PodDisruptionBudget",
                    t -> FieldPath.of("spec.selector.matchLabels.version").remove(t),
                    equal("spec.selector", Map.of("matchLabels", Map.of("app", name))))));
    runs.add(
        run(
            ConformanceCase.SELECTOR_KEY_REMOVED,
            "Custom resource",
            name ->
                change(
                    name,
                    "Custom resource",
                    t -> FieldPath.of("spec.limits.memory").remove(t),
                    equal("spec.limits", Map.of("cpu", "2")))));
    // foreign finalizer
    for (String kind : List.of("ConfigMap", "Deployment", "Custom resource")) {
      runs.add(run(ConformanceCase.FOREIGN_FINALIZER, kind, name -> foreignFinalizer(name, kind)));
    }
    // explicit clusterIP ""
    for (String kind : List.of("Service (ClusterIP)", "Service (NodePort)")) {
      runs.add(
          run(
              ConformanceCase.EXPLICIT_EMPTY_CLUSTER_IP,
              kind,
              name -> {
                Map<String, Object> v1 = corpus.object(kind(kind), namespace, name);
                FieldPath.of("spec.clusterIP").set(v1, "");
                Map<String, Object> v2 = JsonValue.copy(v1);
                FieldPath.of("spec.ports[name=http].port").set(v2, 8080);
                List<Expectation> allocated = List.of(presentOtherThan("spec.clusterIP", ""));
                return steps(List.of(v1, v2), List.of(allocated, allocated));
              }));
    }
    // update strategy switches
    runs.add(
        run(
            ConformanceCase.UPDATE_STRATEGY_SWITCH,
            "Deployment (defaulted parameters)",
            name -> {
              Map<String, Object> v1 = corpus.object(kind("Deployment"), namespace, name);
              Map<String, Object> v2 = JsonValue.copy(v1);
              FieldPath.of("spec.strategy")
                  .set(v2, new LinkedHashMap<>(Map.of("type", "Recreate")));
              return steps(
                  List.of(v1, v2, v1),
                  List.of(
                      List.of(equal("spec.strategy.rollingUpdate.maxSurge", "25%")),
                      List.of(
                          equal("spec.strategy.type", "Recreate"),
                          absent("spec.strategy.rollingUpdate")),
                      List.of(
                          equal("spec.strategy.type", "RollingUpdate"),
                          equal("spec.strategy.rollingUpdate.maxUnavailable", "25%"))));
            }));
    runs.add(
        run(
            ConformanceCase.UPDATE_STRATEGY_SWITCH,
            "Deployment (desired parameters)",
            name -> {
              Map<String, Object> v1 = corpus.object(kind("Deployment"), namespace, name);
              FieldPath.of("spec.strategy")
                  .set(
                      v1,
                      JsonValue.copy(
                          Map.of(
                              "type",
                              "RollingUpdate",
                              "rollingUpdate",
                              Map.of("maxSurge", 1, "maxUnavailable", 0))));
              Map<String, Object> v2 = JsonValue.copy(v1);
              FieldPath.of("spec.strategy")
                  .set(v2, new LinkedHashMap<>(Map.of("type", "Recreate")));
              return steps(
                  List.of(v1, v2),
                  List.of(
                      List.of(equal("spec.strategy.rollingUpdate.maxSurge", 1)),
                      List.of(
                          equal("spec.strategy.type", "Recreate"),
                          absent("spec.strategy.rollingUpdate"))));
            }));
    runs.add(
        run(
            ConformanceCase.UPDATE_STRATEGY_SWITCH,
            "DaemonSet",
            name ->
                change(
                    name,
                    "DaemonSet",
                    t ->
                        FieldPath.of("spec.updateStrategy")
                            .set(t, new LinkedHashMap<>(Map.of("type", "OnDelete"))),
                    equal("spec.updateStrategy.type", "OnDelete"),
                    absent("spec.updateStrategy.rollingUpdate"))));
    runs.add(
        run(
            ConformanceCase.UPDATE_STRATEGY_SWITCH,
            "StatefulSet",
            name ->
                change(
                    name,
                    "StatefulSet",
                    t ->
                        FieldPath.of("spec.updateStrategy")
                            .set(t, new LinkedHashMap<>(Map.of("type", "OnDelete"))),
                    equal("spec.updateStrategy.type", "OnDelete"),
                    absent("spec.updateStrategy.rollingUpdate"))));
    // env value -> valueFrom
    for (String kind : List.of("Deployment", "CronJob")) {
      String web = kind.equals("CronJob") ? JOB_WEB : WEB;
      runs.add(
          run(
              ConformanceCase.ENV_VALUE_TO_VALUE_FROM,
              kind,
              name -> {
                Map<String, Object> v1 = corpus.object(kind(kind), namespace, name);
                Map<String, Object> v2 = JsonValue.copy(v1);
                FieldPath.of(web + ".env[name=LEVEL]")
                    .set(
                        v2,
                        JsonValue.copy(
                            Map.of(
                                "name",
                                "LEVEL",
                                "valueFrom",
                                Map.of(
                                    "configMapKeyRef",
                                    Map.of("name", "app-config", "key", "level")))));
                Map<String, Object> v3 = JsonValue.copy(v2);
                FieldPath.of(web + ".env[name=LEVEL]")
                    .set(v3, JsonValue.copy(Map.of("name", "LEVEL", "value", "debug")));
                return steps(
                    List.of(v1, v2, v3),
                    List.of(
                        List.of(equal(web + ".env[name=LEVEL].value", "info")),
                        List.of(
                            absent(web + ".env[name=LEVEL].value"),
                            equal(web + ".env[name=LEVEL].valueFrom.configMapKeyRef.key", "level")),
                        List.of(
                            equal(web + ".env[name=LEVEL].value", "debug"),
                            absent(web + ".env[name=LEVEL].valueFrom"))));
              }));
    }
    // volume source switch
    for (String kind : List.of("Deployment", "StatefulSet")) {
      runs.add(
          run(
              ConformanceCase.VOLUME_SOURCE_SWITCH,
              kind,
              name ->
                  change(
                      name,
                      kind,
                      t ->
                          FieldPath.of("spec.template.spec.volumes[name=config]")
                              .set(
                                  t,
                                  JsonValue.copy(
                                      Map.of(
                                          "name",
                                          "config",
                                          "secret",
                                          Map.of("secretName", "app-secret")))),
                      absent("spec.template.spec.volumes[name=config].configMap"),
                      equal(
                          "spec.template.spec.volumes[name=config].secret.secretName",
                          "app-secret"))));
    }
    // probe handler switch
    runs.add(
        run(
            ConformanceCase.PROBE_HANDLER_SWITCH,
            "Deployment",
            name -> {
              Map<String, Object> v1 = corpus.object(kind("Deployment"), namespace, name);
              Map<String, Object> v2 = JsonValue.copy(v1);
              FieldPath.of(WEB + ".livenessProbe.tcpSocket").remove(v2);
              FieldPath.of(WEB + ".livenessProbe.httpGet")
                  .set(v2, JsonValue.copy(Map.of("path", "/healthz", "port", 8080)));
              Map<String, Object> v3 = JsonValue.copy(v2);
              FieldPath.of(WEB + ".livenessProbe.httpGet").remove(v3);
              FieldPath.of(WEB + ".livenessProbe.exec")
                  .set(v3, JsonValue.copy(Map.of("command", List.of("/bin/check"))));
              return steps(
                  List.of(v1, v2, v3),
                  List.of(
                      List.of(equal(WEB + ".livenessProbe.tcpSocket.port", 8080)),
                      List.of(
                          absent(WEB + ".livenessProbe.tcpSocket"),
                          equal(WEB + ".livenessProbe.httpGet.path", "/healthz")),
                      List.of(
                          absent(WEB + ".livenessProbe.httpGet"),
                          equal(WEB + ".livenessProbe.exec.command", List.of("/bin/check")))));
            }));
    // tolerations reordered
    for (String kind : List.of("Deployment", "DaemonSet")) {
      runs.add(
          run(
              ConformanceCase.TOLERATIONS_REORDERED,
              kind,
              name -> {
                Map<String, Object> noExecute =
                    Map.of(
                        "key",
                        "dedicated",
                        "operator",
                        "Equal",
                        "value",
                        "web",
                        "effect",
                        "NoExecute",
                        "tolerationSeconds",
                        60);
                Map<String, Object> noSchedule =
                    Map.of(
                        "key",
                        "dedicated",
                        "operator",
                        "Equal",
                        "value",
                        "web",
                        "effect",
                        "NoSchedule");
                return change(
                    name,
                    kind,
                    t ->
                        FieldPath.of("spec.template.spec.tolerations")
                            .set(t, JsonValue.copy(List.of(noExecute, noSchedule))),
                    equal("spec.template.spec.tolerations", List.of(noExecute, noSchedule)));
              }));
    }
    runs.add(
        run(
            ConformanceCase.TOLERATIONS_REORDERED,
            "Deployment (Exists and Equal)",
            name -> {
              Map<String, Object> exists =
                  Map.of("key", "dedicated", "operator", "Exists", "effect", "NoSchedule");
              Map<String, Object> equal =
                  Map.of(
                      "key",
                      "dedicated",
                      "operator",
                      "Equal",
                      "value",
                      "web",
                      "effect",
                      "NoExecute",
                      "tolerationSeconds",
                      30);
              Map<String, Object> v1 = corpus.object(kind("Deployment"), namespace, name);
              FieldPath.of("spec.template.spec.tolerations")
                  .set(v1, JsonValue.copy(List.of(equal, exists)));
              Map<String, Object> v2 = JsonValue.copy(v1);
              FieldPath.of("spec.template.spec.tolerations")
                  .set(v2, JsonValue.copy(List.of(exists, equal)));
              return steps(
                  List.of(v1, v2),
                  List.of(
                      List.of(),
                      List.of(equal("spec.template.spec.tolerations", List.of(exists, equal)))));
            }));
    runs.add(run(ConformanceCase.LARGE_CONFIGMAP, "ConfigMap (6,000 keys)", this::largeConfigMap));
    runs.add(run(ConformanceCase.SERVICE_TYPE_CHANGES, "Service (all types)", this::serviceTypes));
    runs.add(
        run(
            ConformanceCase.SERVICE_TYPE_CHANGES,
            "Service (headless)",
            name ->
                change(
                    name,
                    "Service (headless)",
                    t -> FieldPath.of("spec.ports[name=peer].port").set(t, 7001),
                    equal("spec.clusterIP", "None"),
                    equal("spec.ports[name=peer].port", 7001))));
    runs.add(
        run(ConformanceCase.CUSTOM_RESOURCE_LISTS, "Custom resource", this::customResourceLists));
    // owners through subresources
    for (String kind : List.of("Deployment", "StatefulSet", "Custom resource")) {
      runs.add(
          run(
              ConformanceCase.SUBRESOURCE_OWNER,
              kind + " (/scale)",
              name -> scaledReplicasKept(name, kind)));
    }
    // values another writer owns too
    runs.add(
        run(
            ConformanceCase.CO_OWNED_VALUES,
            "Deployment (annotation another applier applied too)",
            this::coAppliedAnnotation));
    runs.add(
        run(
            ConformanceCase.CO_OWNED_VALUES,
            "Deployment (spec.replicas another update set)",
            this::coUpdatedReplicas));
    runs.add(
        run(
            ConformanceCase.CO_OWNED_VALUES,
            "Custom resource (set and map-list elements another applier applied too)",
            this::coAppliedElements));
    // explicitly empty lists
    runs.add(
        run(
            ConformanceCase.EXPLICIT_EMPTY_LISTS,
            "Deployment (emptied)",
            name ->
                change(
                    name,
                    "Deployment",
                    t -> {
                      FieldPath.of("spec.template.spec.imagePullSecrets").set(t, new ArrayList<>());
                      FieldPath.of("spec.template.spec.tolerations").set(t, new ArrayList<>());
                      FieldPath.of(WEB + ".env").set(t, new ArrayList<>());
                    },
                    absent("spec.template.spec.tolerations"),
                    absent(WEB + ".env"),
                    equal(WEB + ".image", "registry.example/web:1.4.2"))));
    runs.add(
        run(
            ConformanceCase.EXPLICIT_EMPTY_LISTS,
            "Deployment (created empty)",
            name -> {
              Map<String, Object> v1 = corpus.object(kind("Deployment"), namespace, name);
              FieldPath.of("spec.template.spec.imagePullSecrets").set(v1, new ArrayList<>());
              FieldPath.of("spec.template.spec.containers[name=sidecar].env")
                  .set(v1, new ArrayList<>());
              Map<String, Object> v2 = JsonValue.copy(v1);
              FieldPath.of("metadata.labels.release").set(v2, "2");
              // as a generic resource: fabric8's typed Deployment drops empty lists when it
              // serializes, so only an untyped object brings them to the strategy
              return steps(
                  List.of(v1, v2),
                  List.of(
                      List.of(absent("spec.template.spec.imagePullSecrets")),
                      List.of(
                          equal("metadata.labels.release", "2"),
                          absent("spec.template.spec.imagePullSecrets"))),
                  true);
            }));
    runs.add(
        run(
            ConformanceCase.EXPLICIT_EMPTY_LISTS,
            "Custom resource (emptied)",
            name ->
                change(
                    name,
                    "Custom resource",
                    CaseRunner::emptyWidgetLists,
                    lacks("spec.tags", "blue"),
                    lacks("spec.tags", "green"),
                    absent("spec.ports[name=http]"),
                    absent("spec.template.containers[name=main].env[name=LEVEL]"),
                    equal("spec.color", "red"))));
    runs.add(
        run(
            ConformanceCase.EXPLICIT_EMPTY_LISTS,
            "Custom resource (created empty)",
            name -> {
              Map<String, Object> v1 = corpus.object(kind("Custom resource"), namespace, name);
              emptyWidgetLists(v1);
              Map<String, Object> v2 = JsonValue.copy(v1);
              FieldPath.of("spec.color").set(v2, "blue");
              return steps(
                  List.of(v1, v2),
                  List.of(
                      List.of(lacks("spec.tags", "blue")),
                      List.of(equal("spec.color", "blue"), lacks("spec.tags", "blue"))));
            }));
    List<CorpusKind> kinds = corpus.kinds();
    for (int i = 0; i < kinds.size(); i++) {
      CorpusKind kind = kinds.get(i);
      long seed = 1000L + i;
      runs.add(
          run(
              ConformanceCase.REALISTIC_ROUND_TRIP,
              kind.label(),
              name -> roundTrip(kind, seed, name)));
    }
    return runs;
  }

  /** Runs one case; returns a note, or throws {@link ExpectationFailure}. */
  public String run(CaseRun run, int index) {
    String name =
        run.check().caseName().replaceAll("[^a-z]", "").substring(0, 8)
            + "-"
            + index
            + "-"
            + target.name().replaceAll("[^a-z0-9]", "");
    return run.body().run(name);
  }

  private static CaseRun run(ConformanceCase check, String subject, Body body) {
    return new CaseRun(check, subject, body);
  }

  /** The corpus object, then the same with {@code change}: both applied and judged. */
  private String change(
      String name, String kind, Consumer<Map<String, Object>> change, Expectation... expected) {
    Map<String, Object> v1 = corpus.object(kind(kind), namespace, name);
    Map<String, Object> v2 = JsonValue.copy(v1);
    change.accept(v2);
    return steps(List.of(v1, v2), List.of(List.of(), List.of(expected)));
  }

  /**
   * Applies each desired object in turn. After each: the apply was accepted, a change is reported
   * UPDATED, live meets the step's expectations and holds what a fresh create of desired holds, and
   * the same desired applied again sends no write.
   */
  private String steps(List<Map<String, Object>> desired, List<List<Expectation>> expected) {
    return steps(desired, expected, false);
  }

  /**
   * As {@link #steps(List, List)}; {@code generic}: each desired object is handed to the strategy
   * as a {@link GenericKubernetesResource}, as an operator working on untyped objects does.
   */
  private String steps(
      List<Map<String, Object>> desired, List<List<Expectation>> expected, boolean generic) {
    Findings f = new Findings();
    List<String> notes = new ArrayList<>();
    for (int i = 0; i < desired.size(); i++) {
      HasMetadata object =
          generic
              ? other
                  .getKubernetesSerialization()
                  .convertValue(desired.get(i), GenericKubernetesResource.class)
              : SequenceRunner.toObject(desired.get(i));
      ApplyResult<HasMetadata> result = applyAccepted(f, object, "step " + i);
      if (i > 0) {
        f.check(
            "outcome",
            result.outcome() == ApplyOutcome.UPDATED,
            "step " + i + ": outcome " + result.outcome() + ", expected UPDATED");
      }
      expect(f, object, expected.get(i));
      f.none(
          "live-holds-desired",
          prefixed(
              "step " + i,
              Judge.holdsDesired(
                  desired.get(i), judge.require(object), judge.freshCreate(object), List.of())));
      steady(f, object, "step " + i);
      notes.add(result.outcome() + " " + cut(result.request()));
    }
    f.throwIfAny();
    return String.join("; ", notes);
  }

  private String foreignFinalizer(String name, String kind) {
    Map<String, Object> v1 = corpus.object(kind(kind), namespace, name);
    FieldPath.of("metadata.finalizers").set(v1, new ArrayList<>(List.of("example.com/ours")));
    Map<String, Object> v2 = JsonValue.copy(v1);
    FieldPath.of("metadata.labels.release").set(v2, "2");
    HasMetadata first = SequenceRunner.toObject(v1);
    Findings f = new Findings();
    try {
      applyAccepted(f, first, "create");
      otherPatch(
          first,
          PatchType.JSON_MERGE,
          "{\"metadata\":{\"finalizers\":[\"example.com/ours\",\"other.example/guard\"]}}");
      counter.reset();
      ApplyResult<HasMetadata> again =
          applyAccepted(f, SequenceRunner.toObject(v1), "same desired after the foreign finalizer");
      f.check(
          "no-write-for-foreign-finalizer",
          again.outcome() == ApplyOutcome.UNCHANGED && counter.writes().isEmpty(),
          "the same desired after another client added a finalizer: "
              + again.outcome()
              + ", writes "
              + counter.writes());
      expect(
          f,
          first,
          List.of(contains("metadata.finalizers", "example.com/ours", "other.example/guard")));
      HasMetadata second = SequenceRunner.toObject(v2);
      applyAccepted(f, second, "change");
      expect(
          f,
          second,
          List.of(
              contains("metadata.finalizers", "example.com/ours", "other.example/guard"),
              equal("metadata.labels.release", "2")));
      steady(f, second, "after the change");
      f.throwIfAny();
      return "both finalizers kept";
    } finally {
      if (judge.live(first).isPresent()) {
        otherPatch(first, PatchType.JSON_MERGE, "{\"metadata\":{\"finalizers\":null}}");
        other.resource(first).delete();
      }
    }
  }

  private String largeConfigMap(String name) {
    Map<String, Object> data = new LinkedHashMap<>();
    for (int i = 0; i < 6000; i++) {
      data.put(String.format("key-%036d", i), String.format("value-%034d", i));
    }
    Map<String, Object> v1 = new LinkedHashMap<>();
    v1.put("apiVersion", "v1");
    v1.put("kind", "ConfigMap");
    v1.put(
        "metadata",
        new LinkedHashMap<>(
            Map.of("name", name, "namespace", namespace, "labels", Map.of("app", name))));
    v1.put("data", data);
    Map<String, Object> v2 = JsonValue.copy(v1);
    String first = String.format("key-%036d", 0);
    FieldPath.of("data").key(first).set(v2, "changed");
    return steps(
        List.of(v1, v2),
        List.of(
            List.of(
                equal(
                    "data[\"" + String.format("key-%036d", 5999) + "\"]",
                    String.format("value-%034d", 5999))),
            List.of(equal("data[\"" + first + "\"]", "changed"))));
  }

  private String serviceTypes(String name) {
    Map<String, Object> clusterIp = corpus.object(kind("Service (ClusterIP)"), namespace, name);
    Map<String, Object> nodePort = JsonValue.copy(clusterIp);
    FieldPath.of("spec.type").set(nodePort, "NodePort");
    Map<String, Object> loadBalancer = JsonValue.copy(clusterIp);
    FieldPath.of("spec.type").set(loadBalancer, "LoadBalancer");
    FieldPath.of("spec.externalTrafficPolicy").set(loadBalancer, "Local");
    Map<String, Object> externalName = JsonValue.copy(clusterIp);
    FieldPath.of("spec.type").set(externalName, "ExternalName");
    FieldPath.of("spec.externalName").set(externalName, "db.example.com");
    FieldPath.of("spec.selector").remove(externalName);
    List<Expectation> backToClusterIp =
        List.of(
            equal("spec.type", "ClusterIP"),
            absent("spec.ports[name=http].nodePort"),
            absent("spec.healthCheckNodePort"),
            absent("spec.externalTrafficPolicy"),
            presentOtherThan("spec.clusterIP", "None"));
    return steps(
        List.of(clusterIp, nodePort, loadBalancer, clusterIp, externalName, clusterIp),
        List.of(
            List.of(presentOtherThan("spec.clusterIP", "None")),
            List.of(
                equal("spec.type", "NodePort"),
                presentOtherThan("spec.ports[name=http].nodePort", 0)),
            List.of(
                equal("spec.type", "LoadBalancer"),
                presentOtherThan("spec.healthCheckNodePort", 0)),
            backToClusterIp,
            List.of(
                equal("spec.type", "ExternalName"),
                equal("spec.externalName", "db.example.com"),
                absent("spec.clusterIP"),
                absent("spec.clusterIPs"),
                absent("spec.selector")),
            List.of(
                equal("spec.type", "ClusterIP"),
                absent("spec.externalName"),
                presentOtherThan("spec.clusterIP", "None"))));
  }

  private String customResourceLists(String name) {
    Map<String, Object> v1 = corpus.object(kind("Custom resource"), namespace, name);
    HasMetadata first = SequenceRunner.toObject(v1);
    Findings f = new Findings();
    applyAccepted(f, first, "create");
    // Another actor adds its own elements the way co-owners do: a server-side apply of only them.
    GenericKubernetesResource theirs = new GenericKubernetesResource();
    theirs.setApiVersion(first.getApiVersion());
    theirs.setKind(first.getKind());
    theirs.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName(name)
            .withNamespace(namespace)
            .build());
    theirs.setAdditionalProperty(
        "spec",
        Map.of(
            "ports",
            List.of(Map.of("name", "foreign", "port", 7777)),
            "tags",
            List.of("foreign-tag")));
    other
        .resource(theirs)
        .fieldManager(ScenarioRunner.OTHER_MANAGER)
        .forceConflicts()
        .serverSideApply();
    Map<String, Object> v2 = JsonValue.copy(v1);
    FieldPath.of("spec.ports[name=metrics]").remove(v2);
    FieldPath.of("spec.ports[name=http].port").set(v2, 8080);
    FieldPath.of("spec.tags").set(v2, new ArrayList<>(List.of("green")));
    FieldPath.of("spec.steps[name=test]").remove(v2);
    FieldPath.of("spec.settings.retries").remove(v2);
    FieldPath.of("spec.limits.memory").remove(v2);
    FieldPath.of("spec.template.containers[name=main].env[name=ZONE]").remove(v2);
    HasMetadata second = SequenceRunner.toObject(v2);
    ApplyResult<HasMetadata> result = applyAccepted(f, second, "change");
    f.check(
        "outcome",
        result.outcome() == ApplyOutcome.UPDATED,
        "outcome " + result.outcome() + ", expected UPDATED");
    expect(
        f,
        second,
        List.of(
            absent("spec.ports[name=metrics]"),
            equal("spec.ports[name=http].port", 8080),
            equal("spec.ports[name=http].protocol", "TCP"),
            contains("spec.tags", "green"),
            lacks("spec.tags", "blue"),
            equal("spec.steps", List.of(Map.of("name", "build", "timeout", "60s"))),
            absent("spec.settings.retries"),
            equal("spec.settings.ratio", "1.1"),
            equal("spec.limits", Map.of("cpu", "2")),
            absent("spec.template.containers[name=main].env[name=ZONE]"),
            equal("spec.template.containers[name=main].env[name=LEVEL].value", "info")));
    Map<String, Object> live = judge.require(second);
    f.check(
        "foreign-list-element-kept",
        equal("spec.ports[name=foreign].port", 7777).check(live).isEmpty(),
        equal("spec.ports[name=foreign].port", 7777).check(live).orElse(""));
    f.check(
        "foreign-set-element-kept",
        contains("spec.tags", "foreign-tag").check(live).isEmpty(),
        contains("spec.tags", "foreign-tag").check(live).orElse(""));
    steady(f, second, "after the change");
    f.throwIfAny();
    return "applied " + cut(result.request());
  }

  private static void emptyWidgetLists(Map<String, Object> t) {
    FieldPath.of("spec.tags").set(t, new ArrayList<>());
    FieldPath.of("spec.ports").set(t, new ArrayList<>());
    FieldPath.of("spec.steps").set(t, new ArrayList<>());
    FieldPath.of("spec.template.containers[name=main].env").set(t, new ArrayList<>());
  }

  /**
   * Desired sets spec.replicas; another writer scales through /scale; desired stops setting
   * replicas: the scaled value stays (the other writer owns it), and no apply writes again.
   */
  private String scaledReplicasKept(String name, String kind) {
    Map<String, Object> v1 = corpus.object(kind(kind), namespace, name);
    FieldPath.of("spec.replicas").set(v1, 2);
    Map<String, Object> v2 = JsonValue.copy(v1);
    FieldPath.of("spec.replicas").remove(v2);
    FieldPath.of("metadata.labels.release").set(v2, "2");
    HasMetadata first = SequenceRunner.toObject(v1);
    Findings f = new Findings();
    applyAccepted(f, first, "create");
    expect(f, first, List.of(equal("spec.replicas", 2)));
    Subresources.mergePatch(other, first, "scale", SCALER, "{\"spec\":{\"replicas\":3}}");
    HasMetadata second = SequenceRunner.toObject(v2);
    applyAccepted(f, second, "desired without spec.replicas");
    expect(f, second, List.of(equal("spec.replicas", 3), equal("metadata.labels.release", "2")));
    steady(f, second, "after desired dropped spec.replicas");
    f.throwIfAny();
    return "spec.replicas 3 kept";
  }

  /**
   * An annotation desired sets and another actor applies as well (server-side apply, the same
   * value): desired drops it, and it stays with the other applier's value.
   */
  private String coAppliedAnnotation(String name) {
    String annotation = "metadata.annotations[\"example.com/owner\"]";
    Map<String, Object> v1 = corpus.object(kind("Deployment"), namespace, name);
    Map<String, Object> v2 = JsonValue.copy(v1);
    FieldPath.of(annotation).remove(v2);
    FieldPath.of("metadata.annotations[\"example.com/revision\"]").set(v2, "011");
    HasMetadata first = SequenceRunner.toObject(v1);
    Findings f = new Findings();
    applyAccepted(f, first, "create");
    otherApply(
        first, Map.of("metadata", Map.of("annotations", Map.of("example.com/owner", "team-a"))));
    HasMetadata second = SequenceRunner.toObject(v2);
    applyAccepted(f, second, "desired without the annotation");
    expect(
        f,
        second,
        List.of(
            equal(annotation, "team-a"),
            equal("metadata.annotations[\"example.com/revision\"]", "011")));
    steady(f, second, "after desired dropped the annotation");
    f.throwIfAny();
    return "the co-applied annotation kept";
  }

  /**
   * Another actor's update sets spec.replicas to 3; desired then sets 3 too (both own it); desired
   * drops it: 3 stays, as it does for an apply when another manager owns the field.
   */
  private String coUpdatedReplicas(String name) {
    Map<String, Object> v1 = corpus.object(kind("Deployment"), namespace, name);
    Map<String, Object> v2 = JsonValue.copy(v1);
    FieldPath.of("spec.replicas").set(v2, 3);
    Map<String, Object> v3 = JsonValue.copy(v2);
    FieldPath.of("spec.replicas").remove(v3);
    HasMetadata first = SequenceRunner.toObject(v1);
    Findings f = new Findings();
    applyAccepted(f, first, "create");
    otherPatch(first, PatchType.JSON_MERGE, "{\"spec\":{\"replicas\":3}}");
    HasMetadata second = SequenceRunner.toObject(v2);
    applyAccepted(f, second, "desired with the same spec.replicas");
    expect(f, second, List.of(equal("spec.replicas", 3)));
    steady(f, second, "desired with the same spec.replicas");
    HasMetadata third = SequenceRunner.toObject(v3);
    applyAccepted(f, third, "desired without spec.replicas");
    expect(f, third, List.of(equal("spec.replicas", 3)));
    steady(f, third, "after desired dropped spec.replicas");
    f.throwIfAny();
    return "spec.replicas 3 kept";
  }

  /**
   * A set element and a map-list element desired sets and another actor applies as well: desired
   * drops them, and they stay.
   */
  private String coAppliedElements(String name) {
    Map<String, Object> v1 = corpus.object(kind("Custom resource"), namespace, name);
    Map<String, Object> v2 = JsonValue.copy(v1);
    FieldPath.of("spec.tags").set(v2, new ArrayList<>(List.of("green")));
    FieldPath.of("spec.ports[name=http]").remove(v2);
    HasMetadata first = SequenceRunner.toObject(v1);
    Findings f = new Findings();
    applyAccepted(f, first, "create");
    otherApply(
        first,
        Map.of(
            "spec",
            Map.of(
                "tags",
                List.of("blue"),
                "ports",
                List.of(Map.of("name", "http", "port", 80, "protocol", "TCP")))));
    HasMetadata second = SequenceRunner.toObject(v2);
    applyAccepted(f, second, "desired without them");
    expect(
        f,
        second,
        List.of(
            contains("spec.tags", "blue", "green"),
            equal("spec.ports[name=http].port", 80),
            equal("spec.ports[name=metrics].port", 9090)));
    steady(f, second, "after desired dropped them");
    f.throwIfAny();
    return "the co-applied elements kept";
  }

  /** A server-side apply of {@code fields} of {@code ref} by the other actor. */
  private void otherApply(HasMetadata ref, Map<String, Object> fields) {
    GenericKubernetesResource theirs = new GenericKubernetesResource();
    theirs.setApiVersion(ref.getApiVersion());
    theirs.setKind(ref.getKind());
    theirs.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName(ref.getMetadata().getName())
            .withNamespace(ref.getMetadata().getNamespace())
            .build());
    Map<String, Object> metadata = new LinkedHashMap<>();
    fields.forEach(
        (k, v) -> {
          if (k.equals("metadata") && v instanceof Map<?, ?> m) {
            m.forEach((mk, mv) -> metadata.put(String.valueOf(mk), mv));
          } else {
            theirs.setAdditionalProperty(k, v);
          }
        });
    if (metadata.get("annotations") instanceof Map<?, ?> a) {
      Map<String, String> annotations = new LinkedHashMap<>();
      a.forEach((k, v) -> annotations.put(String.valueOf(k), String.valueOf(v)));
      theirs.getMetadata().setAnnotations(annotations);
    }
    other.resource(theirs).fieldManager(ScenarioRunner.OTHER_MANAGER).serverSideApply();
  }

  private String roundTrip(CorpusKind kind, long seed, String name) {
    SequenceRunner runner =
        new SequenceRunner(
            target.strategy(),
            strategyClient,
            ScenarioRunner.FIELD_MANAGER,
            counter,
            other,
            namespace,
            corpus);
    Plan plan = runner.draw(kind, seed, 2);
    SequenceRunner.Outcome outcome = runner.execute(plan, name);
    if (outcome.invalid()) {
      throw new IllegalStateException(
          "the round-trip plan of "
              + kind.label()
              + " is not valid on this server:\n"
              + plan.describe());
    }
    outcome
        .failure()
        .ifPresent(
            failure -> {
              throw ExpectationFailure.of(
                  failure.expectation(),
                  failure.category().label()
                      + " at step "
                      + failure.step()
                      + ": "
                      + failure.detail()
                      + "\n"
                      + plan.describe());
            });
    return "seed " + seed + ", " + plan.size() + " changes";
  }

  private ApplyResult<HasMetadata> applyAccepted(Findings f, HasMetadata desired, String step) {
    try {
      return target
          .strategy()
          .apply(desired, new DirectStrategyContext(strategyClient, ScenarioRunner.FIELD_MANAGER));
    } catch (RuntimeException e) {
      f.require(
          "accepted", false, step + ": a valid desired object was refused: " + e.getMessage());
      throw e;
    }
  }

  private void expect(Findings f, HasMetadata ref, List<Expectation> expectations) {
    Map<String, Object> live = judge.require(ref);
    for (Expectation e : expectations) {
      f.check(e.id(), e.check(live).isEmpty(), e.check(live).orElse(""));
    }
  }

  private void steady(Findings f, HasMetadata desired, String when) {
    counter.reset();
    ApplyResult<HasMetadata> again = applyAccepted(f, desired, when + ", applied again");
    f.check(
        "steady",
        again.outcome() == ApplyOutcome.UNCHANGED && counter.writes().isEmpty(),
        when
            + ": the same desired again was "
            + again.outcome()
            + " with writes "
            + counter.writes()
            + " "
            + cut(again.request()));
  }

  private void otherPatch(HasMetadata ref, PatchType type, String body) {
    PatchContext context = PatchContext.of(type);
    context.setFieldManager(ScenarioRunner.OTHER_MANAGER);
    other.resource(ref).patch(context, body);
  }

  private CorpusKind kind(String label) {
    return corpus.kind(label);
  }

  private static List<String> prefixed(String prefix, List<String> lines) {
    return lines.stream().map(l -> prefix + ": " + l).toList();
  }

  private static String base64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String cut(String s) {
    return s.length() > 160 ? s.substring(0, 160) + "…" : s;
  }
}
