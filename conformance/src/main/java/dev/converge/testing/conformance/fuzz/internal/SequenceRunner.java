package dev.converge.testing.conformance.fuzz.internal;

import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.DirectStrategyContext;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.testing.conformance.FieldPath;
import dev.converge.testing.conformance.Judge;
import dev.converge.testing.conformance.WriteCounter;
import dev.converge.testing.conformance.fuzz.FuzzCategory;
import dev.converge.testing.conformance.internal.JsonValue;
import dev.converge.testing.conformance.internal.Subresources;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * Draws fuzz plans and runs them against the real API server, judging every apply with {@link
 * Judge}: the live object must hold what a fresh create (a server-side dry run) of desired holds
 * for every field desired names; fields dropped from desired must be gone unless another actor set
 * them; labels, annotations, finalizers and fields another actor set must survive; and a second
 * apply of the same desired must send no write.
 */
public final class SequenceRunner {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  /** The field manager of the other actor. */
  public static final String OTHER_MANAGER = "fuzz-other-actor";

  private static final int ATTEMPTS = 6;
  private static final java.util.Set<String> IDENTITIES =
      java.util.Set.of(
          "name",
          "port",
          "containerPort",
          "protocol",
          "mountPath",
          "key",
          "type",
          "path",
          "operator",
          "effect",
          "topologyKey",
          "apiGroups",
          "resources",
          "verbs");

  /**
   * Keys under which a field is not co-applied alone: atomic maps (selectors) and templates, which
   * an apply of one value would replace whole or fight over.
   */
  private static final java.util.Set<String> NOT_CO_APPLIED =
      java.util.Set.of("selector", "matchLabels", "limits", "template", "jobTemplate", "roleRef");

  /** The spec fields (and maps) another actor may apply too. */
  private static final java.util.Set<String> CO_APPLIED_SPEC =
      java.util.Set.of("replicas", "revisionHistoryLimit", "color", "size", "settings");

  /** The field manager of the other actor's server-side applies. */
  public static final String OTHER_APPLIER = "fuzz-other-applier";

  /** The field manager of the other actor's writes through subresources. */
  public static final String SUBRESOURCE_WRITER = "fuzz-scaler";

  private static final Failure INVALID =
      new Failure(-1, FuzzCategory.REFUSED_VALID_CHANGE, "valid", "desired is invalid");

  private final ResourceStrategy strategy;
  private final KubernetesClient strategyClient;
  private final String fieldManager;
  private final WriteCounter counter;
  private final KubernetesClient other;
  private final Judge judge;
  private final String namespace;
  private final Corpus corpus;
  private int applies;
  private int skippedInvalid;

  public SequenceRunner(
      ResourceStrategy strategy,
      KubernetesClient strategyClient,
      String fieldManager,
      WriteCounter counter,
      KubernetesClient other,
      String namespace,
      Corpus corpus) {
    this.strategy = strategy;
    this.strategyClient = strategyClient;
    this.fieldManager = fieldManager;
    this.counter = counter;
    this.other = other;
    this.judge = new Judge(other);
    this.namespace = namespace;
    this.corpus = corpus;
  }

  /**
   * What a run of a plan found: its first failure, if any; {@code invalid} when the server refused
   * a fresh create of one of its desired objects (possible for a shrunk plan), so nothing was
   * judged.
   */
  public record Outcome(Optional<Failure> failure, boolean invalid) {}

  /**
   * The first failure of a run.
   *
   * @param step 0 for the create, n for the n-th change
   * @param category the figure it counts in
   * @param expectation the name of the expectation that failed (what a declared limit can name):
   *     {@code desired-value-lost}, {@code dropped-field-stayed}, {@code
   *     dropped-label-or-annotation-stayed}, {@code foreign-data-kept}, {@code accepted} or {@code
   *     steady}
   * @param detail what was observed
   */
  public record Failure(int step, FuzzCategory category, String expectation, String detail) {}

  /** Strategy applies so far. */
  public int applies() {
    return applies;
  }

  /** Steps skipped so far because every drawn desired object was invalid. */
  public int skippedInvalid() {
    return skippedInvalid;
  }

  /**
   * Draws a plan of {@code changes} steps for {@code kind} from {@code seed}, keeping only desired
   * objects the server accepts.
   */
  public Plan draw(CorpusKind kind, long seed, int changes) {
    Random random = new Random(seed);
    Mutator mutator = new Mutator(kind, random);
    String name = "draw-" + kind.shortName();
    List<Mutation> start = List.of();
    Map<String, Object> d0 = corpus.object(kind, namespace, name);
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Map<String, Object> tree = corpus.object(kind, namespace, name);
      List<Mutation> drawn = mutator.draw(tree, random.nextInt(3));
      if (valid(tree)) {
        start = drawn;
        d0 = tree;
        break;
      }
    }
    List<ForeignChange> foreign = drawForeign(kind, d0, random);
    List<List<Mutation>> steps = new ArrayList<>();
    Map<String, Object> previous = d0;
    for (int i = 0; i < changes; i++) {
      List<Mutation> step = List.of();
      Map<String, Object> next = previous;
      for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        Map<String, Object> tree = JsonValue.copy(previous);
        List<Mutation> drawn = mutator.draw(tree, 1 + random.nextInt(3));
        if (valid(tree)) {
          step = drawn;
          next = tree;
          break;
        }
        if (attempt == ATTEMPTS - 1) {
          skippedInvalid++;
        }
      }
      steps.add(step);
      previous = next;
    }
    return new Plan(kind, seed, start, foreign, steps);
  }

  private List<ForeignChange> drawForeign(CorpusKind kind, Map<String, Object> d0, Random random) {
    List<ForeignChange> out = drawForeignWrites(kind, d0, random);
    // Writers through subresources and co-appliers, often enough that a short run meets them.
    if (kind.scalable() && random.nextBoolean()) {
      Object replicas = FieldPath.of("spec.replicas").get(d0).orElse(1);
      long current = replicas instanceof Number n ? n.longValue() : 1;
      out.add(
          new ForeignChange(
              ForeignChange.Type.SCALE,
              FieldPath.of("spec.replicas"),
              "/spec/replicas",
              current + 1 + random.nextInt(2)));
    }
    if (!kind.statusFields().isEmpty() && random.nextBoolean()) {
      List<String> pointers = new ArrayList<>(kind.statusFields().keySet());
      pointers.sort(null);
      String pointer = pointers.get(random.nextInt(pointers.size()));
      out.add(
          new ForeignChange(
              ForeignChange.Type.STATUS,
              pathOf(pointer),
              pointer,
              kind.statusFields().get(pointer)));
    }
    if (random.nextInt(3) == 0) {
      coApply(kind, d0, random).ifPresent(out::add);
    }
    return out;
  }

  /**
   * A field of {@code d0} another actor server-side applies with the same value: a label, an
   * annotation, or a scalar reached through map keys only (not inside a list, a selector or a
   * template, where an apply of one value would replace or conflict with more than it).
   */
  private Optional<ForeignChange> coApply(CorpusKind kind, Map<String, Object> d0, Random random) {
    List<FieldPath> leaves = new ArrayList<>();
    for (String k : List.of("labels", "annotations")) {
      if (FieldPath.of("metadata").key(k).get(d0).orElse(null) instanceof Map<?, ?> map) {
        map.keySet()
            .forEach(key -> leaves.add(FieldPath.of("metadata").key(k).key(String.valueOf(key))));
      }
    }
    d0.forEach(
        (k, v) -> {
          if (k.equals("spec") || k.equals("data")) {
            leaves(FieldPath.of(List.of(new FieldPath.Key(k))), v, leaves);
          }
        });
    leaves.removeIf(kind::isFrozen);
    // Of spec, only fields no one-of switch of the corpus clears (a Service's
    // externalTrafficPolicy goes with its LoadBalancer type, whoever owns it).
    leaves.removeIf(
        p ->
            p.steps().get(0).equals(new FieldPath.Key("spec"))
                && !(p.steps().size() > 1
                    && p.steps().get(1) instanceof FieldPath.Key k
                    && CO_APPLIED_SPEC.contains(k.name())));
    leaves.removeIf(
        p ->
            p.steps().size() > 4
                || !p.steps().stream().allMatch(s -> s instanceof FieldPath.Key)
                || p.steps().stream()
                    .anyMatch(
                        s -> s instanceof FieldPath.Key k && NOT_CO_APPLIED.contains(k.name())));
    if (leaves.isEmpty()) {
      return Optional.empty();
    }
    FieldPath path = leaves.get(random.nextInt(leaves.size()));
    return Optional.of(
        new ForeignChange(
            ForeignChange.Type.CO_APPLY, path, pointerOf(path), path.get(d0).orElseThrow()));
  }

  private List<ForeignChange> drawForeignWrites(
      CorpusKind kind, Map<String, Object> d0, Random random) {
    List<ForeignChange> out = new ArrayList<>();
    int n = 1 + random.nextInt(3);
    for (int i = 0; i < n; i++) {
      switch (random.nextInt(5)) {
        case 0 ->
            out.add(
                new ForeignChange(
                    ForeignChange.Type.METADATA,
                    FieldPath.of("metadata.labels[\"other.example/team" + i + "\"]"),
                    null,
                    "blue"));
        case 1 ->
            out.add(
                new ForeignChange(
                    ForeignChange.Type.METADATA,
                    FieldPath.of("metadata.annotations[\"other.example/note" + i + "\"]"),
                    null,
                    "keep " + random.nextInt(100)));
        case 2 ->
            out.add(
                new ForeignChange(
                    ForeignChange.Type.FINALIZER,
                    FieldPath.of("metadata.finalizers"),
                    null,
                    "other.example/guard-" + i));
        case 3 -> {
          if (!kind.foreignFields().isEmpty()) {
            List<String> pointers = new ArrayList<>(kind.foreignFields().keySet());
            pointers.sort(null);
            String pointer = pointers.get(random.nextInt(pointers.size()));
            out.add(
                new ForeignChange(
                    ForeignChange.Type.FIELD,
                    pathOf(pointer),
                    pointer,
                    kind.foreignFields().get(pointer)));
          }
        }
        default -> drift(kind, d0, random).ifPresent(out::add);
      }
    }
    return out;
  }

  private Optional<ForeignChange> drift(CorpusKind kind, Map<String, Object> d0, Random random) {
    List<FieldPath> leaves = new ArrayList<>();
    d0.forEach(
        (k, v) -> {
          if (k.equals("spec") || k.equals("data") || k.equals("rules")) {
            leaves(FieldPath.of(List.of(new FieldPath.Key(k))), v, leaves);
          }
        });
    leaves.removeIf(kind::isFrozen);
    // Keys of list elements (a port's number, a container's name) and union discriminators name
    // which element or member a value belongs to; changing them is not drift of a value.
    leaves.removeIf(
        p ->
            p.steps().get(p.steps().size() - 1) instanceof FieldPath.Key k
                && IDENTITIES.contains(k.name()));
    // An element of a list of scalars (args, a set's member) is its own identity: changing it
    // removes one element and adds another, which is not drift of a value either.
    leaves.removeIf(p -> p.steps().get(p.steps().size() - 1) instanceof FieldPath.Index);
    if (leaves.isEmpty()) {
      return Optional.empty();
    }
    FieldPath path = leaves.get(random.nextInt(leaves.size()));
    Object value = path.get(d0).orElseThrow();
    Object drifted =
        value instanceof Number n
            ? (Object) (n.longValue() + 3)
            : value instanceof Boolean b
                ? (Object) !b
                : kind.label().equals("Secret") ? "ZHJpZnQ=" : value + "-drift";
    return Optional.of(new ForeignChange(ForeignChange.Type.DRIFT, path, pointerOf(path), drifted));
  }

  private static void leaves(FieldPath at, Object node, List<FieldPath> out) {
    if (node instanceof Map<?, ?> map) {
      map.forEach((k, v) -> leaves(at.key(String.valueOf(k)), v, out));
    } else if (node instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        List<FieldPath.Step> steps = new ArrayList<>(at.steps());
        steps.add(new FieldPath.Index(i));
        leaves(FieldPath.of(steps), list.get(i), out);
      }
    } else if (node != null) {
      out.add(at);
    }
  }

  private boolean valid(Map<String, Object> tree) {
    HasMetadata object;
    try {
      object = toObject(tree);
    } catch (RuntimeException e) {
      return false; // not even a well-formed object of its kind (an invalid quantity, say)
    }
    try {
      judge.freshCreate(object);
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 422 || e.getCode() == 400) {
        return false;
      }
      throw e;
    }
  }

  /**
   * Runs {@code plan} on an object named {@code name}; stops at the first failure. Deletes the
   * object after.
   */
  public Outcome execute(Plan plan, String name) {
    List<Map<String, Object>> desired = new ArrayList<>();
    Map<String, Object> tree = corpus.object(plan.kind(), namespace, name);
    plan.start().forEach(m -> m.apply(tree));
    desired.add(tree);
    for (List<Mutation> step : plan.steps()) {
      Map<String, Object> next = JsonValue.copy(desired.get(desired.size() - 1));
      step.forEach(m -> m.apply(next));
      desired.add(next);
    }
    List<ForeignChange> applied = new ArrayList<>();
    try {
      for (int i = 0; i < desired.size(); i++) {
        Optional<Failure> failure = step(i, desired, applied);
        if (failure.isPresent()) {
          return failure.get().equals(INVALID)
              ? new Outcome(Optional.empty(), true)
              : new Outcome(failure, false);
        }
        if (i == 0) {
          for (ForeignChange f : plan.foreign()) {
            if (foreign(toObject(desired.get(0)), f)) {
              applied.add(f);
            }
          }
        }
      }
      return new Outcome(Optional.empty(), false);
    } finally {
      cleanUp(toObject(desired.get(0)));
    }
  }

  private Optional<Failure> step(
      int i, List<Map<String, Object>> desired, List<ForeignChange> foreign) {
    Map<String, Object> tree = desired.get(i);
    HasMetadata object = toObject(tree);
    Map<String, Object> fresh;
    try {
      fresh = judge.freshCreate(object);
    } catch (KubernetesClientException e) {
      if (e.getCode() == 422 || e.getCode() == 400) {
        return Optional.of(INVALID);
      }
      throw e;
    }
    try {
      apply(object);
    } catch (RuntimeException e) {
      return Optional.of(
          new Failure(
              i,
              FuzzCategory.REFUSED_VALID_CHANGE,
              "accepted",
              "a fresh create of the same desired object is accepted, the strategy failed: "
                  + e.getMessage()));
    }
    Map<String, Object> live = judge.require(object);
    List<Object> finalizers =
        foreign.stream()
            .filter(f -> f.type() == ForeignChange.Type.FINALIZER)
            .map(ForeignChange::value)
            .toList();
    // A field another actor changed and desired no longer names belongs to that actor now.
    List<FieldPath> handedOver =
        foreign.stream()
            .filter(f -> f.type() == ForeignChange.Type.DRIFT && f.path().get(tree).isEmpty())
            .map(ForeignChange::path)
            .toList();
    List<String> lost = Judge.holdsDesired(tree, live, fresh, finalizers, handedOver);
    if (!lost.isEmpty()) {
      return Optional.of(
          new Failure(i, FuzzCategory.LOST_CHANGE, "desired-value-lost", String.join("; ", lost)));
    }
    if (i > 0) {
      List<FieldPath> foreignPaths = foreign.stream().map(ForeignChange::path).toList();
      List<String> left = Judge.removedGone(desired.get(i - 1), tree, live, fresh, foreignPaths);
      List<String> fields = left.stream().filter(l -> !l.startsWith("metadata.")).toList();
      if (!fields.isEmpty()) {
        return Optional.of(
            new Failure(
                i, FuzzCategory.LOST_CHANGE, "dropped-field-stayed", String.join("; ", fields)));
      }
      if (!left.isEmpty()) {
        return Optional.of(
            new Failure(
                i,
                FuzzCategory.LOST_CHANGE,
                "dropped-label-or-annotation-stayed",
                String.join("; ", left)));
      }
    }
    List<String> foreignLost = new ArrayList<>();
    for (ForeignChange f : foreign) {
      switch (f.type()) {
        case METADATA, FIELD -> {
          if (f.path().get(tree).isEmpty()
              && !JsonValue.equal(f.path().get(live).orElse(null), f.value())) {
            foreignLost.add(f + ", live holds " + JsonValue.text(f.path().get(live).orElse(null)));
          }
        }
        case FINALIZER -> {
          if (!(f.path().get(live).orElse(null) instanceof List<?> list
              && list.contains(f.value()))) {
            foreignLost.add(
                f + ", live finalizers " + JsonValue.text(f.path().get(live).orElse(null)));
          }
        }
        case DRIFT -> {}
        case SCALE, CO_APPLY -> {
          // Kept with the other actor's value while desired has not set it otherwise since.
          if (f.path().get(tree).isEmpty()
              && unchangedSince(desired, i, f)
              && foreign.stream()
                  .noneMatch(
                      g ->
                          !g.equals(f)
                              && g.type() != ForeignChange.Type.METADATA
                              && (g.path().covers(f.path()) || f.path().covers(g.path())))
              && !JsonValue.equal(f.path().get(live).orElse(null), f.value())) {
            foreignLost.add(f + ", live holds " + JsonValue.text(f.path().get(live).orElse(null)));
          }
        }
        case STATUS -> {
          if (!JsonValue.equal(f.path().get(live).orElse(null), f.value())) {
            foreignLost.add(f + ", live holds " + JsonValue.text(f.path().get(live).orElse(null)));
          }
        }
      }
    }
    if (!foreignLost.isEmpty()) {
      return Optional.of(
          new Failure(
              i,
              FuzzCategory.FOREIGN_DATA_LOST,
              "foreign-data-kept",
              String.join("; ", foreignLost)));
    }
    counter.reset();
    ApplyResult<HasMetadata> again;
    try {
      again = apply(toObject(tree));
    } catch (RuntimeException e) {
      return Optional.of(
          new Failure(
              i,
              FuzzCategory.REFUSED_VALID_CHANGE,
              "accepted",
              "the repeated apply failed: " + e.getMessage()));
    }
    List<String> writes = counter.writes();
    if (again.outcome() != ApplyOutcome.UNCHANGED || !writes.isEmpty()) {
      return Optional.of(
          new Failure(
              i,
              FuzzCategory.ENDLESS_WRITES,
              "steady",
              "the same desired applied again: "
                  + again.outcome()
                  + ", writes "
                  + writes
                  + ", request "
                  + cut(again.request())));
    }
    return Optional.empty();
  }

  /**
   * Whether no desired object since the first apply set {@code f}'s field to a value other than the
   * other actor's (for a scale, whether none set it at all: desired's own value takes the field
   * back from the scaler).
   */
  private static boolean unchangedSince(
      List<Map<String, Object>> desired, int step, ForeignChange f) {
    for (int j = 1; j <= step; j++) {
      Optional<Object> value = f.path().get(desired.get(j));
      if (value.isPresent()
          && (f.type() == ForeignChange.Type.SCALE || !JsonValue.equal(value.get(), f.value()))) {
        return false;
      }
    }
    return true;
  }

  private ApplyResult<HasMetadata> apply(HasMetadata desired) {
    applies++;
    return strategy.apply(desired, new DirectStrategyContext(strategyClient, fieldManager));
  }

  private boolean foreign(HasMetadata ref, ForeignChange change) {
    try {
      switch (change.type()) {
        case METADATA, FIELD -> {
          Map<String, Object> patch = new LinkedHashMap<>();
          change.path().set(patch, change.value());
          patch(ref, PatchType.JSON_MERGE, Serialization.asJson(patch));
        }
        case FINALIZER -> {
          List<Object> finalizers = new ArrayList<>();
          if (FieldPath.of("metadata.finalizers").get(judge.require(ref)).orElse(null)
              instanceof List<?> list) {
            finalizers.addAll(list);
          }
          finalizers.add(change.value());
          patch(
              ref,
              PatchType.JSON_MERGE,
              Serialization.asJson(Map.of("metadata", Map.of("finalizers", finalizers))));
        }
        case SCALE ->
            Subresources.mergePatch(
                other,
                ref,
                "scale",
                SUBRESOURCE_WRITER,
                Serialization.asJson(Map.of("spec", Map.of("replicas", change.value()))));
        case STATUS -> {
          Map<String, Object> patch = new LinkedHashMap<>();
          change.path().set(patch, change.value());
          Subresources.mergePatch(
              other, ref, "status", SUBRESOURCE_WRITER, Serialization.asJson(patch));
        }
        case CO_APPLY -> {
          Map<String, Object> tree = new LinkedHashMap<>();
          tree.put("apiVersion", ref.getApiVersion());
          tree.put("kind", ref.getKind());
          Map<String, Object> metadata = new LinkedHashMap<>();
          metadata.put("name", ref.getMetadata().getName());
          metadata.put("namespace", ref.getMetadata().getNamespace());
          tree.put("metadata", metadata);
          change.path().set(tree, JsonValue.copy(change.value()));
          GenericKubernetesResource theirs =
              other
                  .getKubernetesSerialization()
                  .convertValue(tree, GenericKubernetesResource.class);
          other.resource(theirs).fieldManager(OTHER_APPLIER).serverSideApply();
        }
        case DRIFT ->
            patch(
                ref,
                PatchType.JSON,
                Serialization.asJson(
                    List.of(
                        Map.of(
                            "op", "replace", "path", change.pointer(), "value", change.value()))));
      }
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 422 || e.getCode() == 400 || e.getCode() == 409) {
        // (409: another manager's value conflicts with a co-apply)
        return false; // the server refuses this change by another actor; the sequence goes on
        // without it
      }
      throw e;
    }
  }

  private void patch(HasMetadata ref, PatchType type, String body) {
    PatchContext context = PatchContext.of(type);
    context.setFieldManager(OTHER_MANAGER);
    other.resource(ref).patch(context, body);
  }

  private void cleanUp(HasMetadata ref) {
    Optional<Map<String, Object>> live = judge.live(ref);
    if (live.isEmpty()) {
      return;
    }
    if (FieldPath.of("metadata.finalizers").get(live.get()).isPresent()) {
      patch(ref, PatchType.JSON_MERGE, "{\"metadata\":{\"finalizers\":null}}");
    }
    other.resource(ref).delete();
  }

  /**
   * The typed object of a tree (a generic resource for custom kinds), as an operator would hand it
   * to a strategy.
   */
  public static HasMetadata toObject(Map<String, Object> tree) {
    return JSON.unmarshal(JSON.asJson(tree));
  }

  private static FieldPath pathOf(String pointer) {
    List<FieldPath.Step> steps = new ArrayList<>();
    for (String part : pointer.substring(1).split("/", -1)) {
      steps.add(new FieldPath.Key(part.replace("~1", "/").replace("~0", "~")));
    }
    return FieldPath.of(steps);
  }

  private static String pointerOf(FieldPath path) {
    StringBuilder pointer = new StringBuilder();
    for (FieldPath.Step step : path.steps()) {
      pointer.append('/');
      if (step instanceof FieldPath.Key k) {
        pointer.append(k.name().replace("~", "~0").replace("/", "~1"));
      } else if (step instanceof FieldPath.Index x) {
        pointer.append(x.index());
      } else {
        throw new IllegalArgumentException("no JSON pointer for " + path);
      }
    }
    return pointer.toString();
  }

  private static String cut(String s) {
    return s.length() > 300 ? s.substring(0, 300) + "…" : s;
  }
}
