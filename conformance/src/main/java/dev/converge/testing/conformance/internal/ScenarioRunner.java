package dev.converge.testing.conformance.internal;

import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.DirectStrategyContext;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategyContext;
import dev.converge.testing.conformance.ConformanceTarget;
import dev.converge.testing.conformance.FieldPath;
import dev.converge.testing.conformance.Judge;
import dev.converge.testing.conformance.Scenario;
import dev.converge.testing.conformance.WriteCounter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;

/**
 * Runs one scenario on one subject against the real API server. Each scenario uses objects of its
 * own. Live objects are judged by {@link Judge}: read with a plain client and compared, field by
 * field of desired, with what a server-side dry-run create of desired holds; never with the
 * comparison code of the strategies. A failed expectation is an {@link ExpectationFailure} naming
 * it, so that a declared limit can cover exactly that expectation.
 */
public final class ScenarioRunner {

  /** The field manager the strategy under test writes as. */
  public static final String FIELD_MANAGER = "converge-conformance";

  /** The field manager of the "other actor". */
  public static final String OTHER_MANAGER = "conformance-other-actor";

  private static final int MAX_CONCURRENT_WRITES = 10;

  private final ConformanceTarget target;
  private final List<ConformanceTarget> peers;
  private final String noPeersReason;
  private final KubernetesClient strategyClient;
  private final WriteCounter counter;
  private final KubernetesClient other;
  private final Judge judge;
  private final String namespace;

  public ScenarioRunner(
      ConformanceTarget target,
      List<ConformanceTarget> peers,
      String noPeersReason,
      KubernetesClient strategyClient,
      WriteCounter counter,
      KubernetesClient other,
      String namespace) {
    this.target = target;
    this.peers = List.copyOf(peers);
    this.noPeersReason = noPeersReason;
    this.strategyClient = strategyClient;
    this.counter = counter;
    this.other = other;
    this.judge = new Judge(other);
    this.namespace = namespace;
  }

  /**
   * Why {@code scenario} does not run for {@code subject} with this configuration; empty when it
   * runs.
   */
  public Optional<String> notRunReason(Scenario scenario, Subject subject) {
    if (scenario == Scenario.ALLOCATIONS && !subject.service()) {
      return Optional.of("only Services have allocated fields");
    }
    if (scenario == Scenario.SWITCH && peers.isEmpty()) {
      return Optional.of(noPeersReason);
    }
    return Optional.empty();
  }

  /** Runs the scenario; returns a short note of what was observed, or throws. */
  public String run(Scenario scenario, Subject subject) {
    String name =
        subject.shortName()
            + "-"
            + scenario.number()
            + "-"
            + target.name().replaceAll("[^a-z0-9]", "");
    return switch (scenario) {
      case CREATE -> create(subject, name);
      case NO_OP -> noOp(subject, name);
      case CHANGE -> change(subject, name);
      case DRIFT -> drift(subject, name);
      case FOREIGN -> foreign(subject, name);
      case REMOVAL -> removal(subject, name);
      case ALLOCATIONS -> allocations(subject, name);
      case CONCURRENT -> concurrent(subject, name);
      case IMMUTABLE -> immutable(subject, name);
      case SWITCH -> switches(subject, name);
    };
  }

  private String create(Subject subject, String name) {
    HasMetadata desired = subject.desired(namespace, name, Variant.BASE);
    counter.reset();
    ApplyResult<HasMetadata> result = apply(target.strategy(), desired);
    Findings f = new Findings();
    f.check(
        "outcome",
        result.outcome() == ApplyOutcome.CREATED,
        "outcome " + result.outcome() + ", expected CREATED");
    f.none("live-holds-desired", holds(desired, List.of()));
    f.throwIfAny();
    return "writes: " + counter.writes();
  }

  private String noOp(Subject subject, String name) {
    HasMetadata desired = subject.desired(namespace, name, Variant.BASE);
    apply(target.strategy(), desired);
    // Let the controllers finish (status, revision annotations) so live differs from desired as
    // much as it will.
    settle(desired);
    counter.reset();
    ApplyResult<HasMetadata> result =
        apply(target.strategy(), subject.desired(namespace, name, Variant.BASE));
    Findings f = new Findings();
    f.check(
        "outcome",
        result.outcome() == ApplyOutcome.UNCHANGED,
        "outcome " + result.outcome() + " (" + result.request() + "), expected UNCHANGED");
    f.check("zero-writes", counter.writes().isEmpty(), "write requests sent: " + counter.writes());
    f.throwIfAny();
    return "0 writes"
        + (counter.dryRuns().isEmpty() ? "" : ", dry runs: " + counter.dryRuns().size());
  }

  private String change(Subject subject, String name) {
    HasMetadata base = subject.desired(namespace, name, Variant.BASE);
    apply(target.strategy(), base);
    settle(base);
    Map<String, Object> before = judge.require(base);
    HasMetadata changed = subject.desired(namespace, name, Variant.CHANGED);
    counter.reset();
    ApplyResult<HasMetadata> result = apply(target.strategy(), changed);
    List<String> writes = counter.writes();
    Findings f = new Findings();
    f.check(
        "outcome",
        result.outcome() == ApplyOutcome.UPDATED,
        "outcome " + result.outcome() + ", expected UPDATED");
    f.check("one-write", writes.size() == 1, "expected one write, sent " + writes);
    Map<String, Object> after = judge.require(base);
    f.none("live-holds-desired", holds(changed, List.of()));
    FieldPath path = FieldPath.of(subject.changedPath());
    Map<String, Object> restBefore = comparable(before, path);
    Map<String, Object> restAfter = comparable(after, path);
    f.check(
        "nothing-else-changed",
        JsonValue.equal(restBefore, restAfter),
        "more than "
            + path
            + " changed: before "
            + JsonValue.text(restBefore, 2000)
            + " after "
            + JsonValue.text(restAfter, 2000));
    steady(f, subject.desired(namespace, name, Variant.CHANGED));
    f.throwIfAny();
    return "1 write: " + result.request();
  }

  private String drift(Subject subject, String name) {
    HasMetadata base = subject.desired(namespace, name, Variant.BASE);
    apply(target.strategy(), base);
    otherPatch(base, subject.driftPatch());
    Findings f = new Findings();
    f.require(
        "drift-visible",
        !holds(base, List.of()).isEmpty(),
        "the drift patch changed nothing desired names");
    ApplyResult<HasMetadata> result =
        apply(target.strategy(), subject.desired(namespace, name, Variant.BASE));
    f.check(
        "outcome",
        result.outcome() == ApplyOutcome.UPDATED,
        "outcome " + result.outcome() + ", expected UPDATED");
    f.none("restored", holds(base, List.of()));
    f.throwIfAny();
    return "restored with " + result.request();
  }

  private String foreign(Subject subject, String name) {
    HasMetadata base = subject.desired(namespace, name, Variant.BASE);
    apply(target.strategy(), base);
    otherPatch(base, subject.foreignPatch());
    Map<String, Object> patched = judge.require(base);
    Map<FieldPath, Object> expected = new LinkedHashMap<>();
    Findings f = new Findings();
    for (String p : subject.foreignPaths()) {
      FieldPath path = FieldPath.of(p);
      Optional<Object> value = path.get(patched);
      f.require("foreign-patch-applied", value.isPresent(), "the foreign patch did not set " + p);
      expected.put(path, value.get());
    }
    HasMetadata changed = subject.desired(namespace, name, Variant.CHANGED);
    ApplyResult<HasMetadata> result = apply(target.strategy(), changed);
    f.check(
        "outcome",
        result.outcome() == ApplyOutcome.UPDATED,
        "outcome " + result.outcome() + ", expected UPDATED");
    Map<String, Object> after = judge.require(base);
    expected.forEach(
        (path, was) -> {
          Object now = path.get(after).orElse(null);
          String id =
              path.steps().get(0).equals(new FieldPath.Key("metadata"))
                  ? "foreign-metadata-kept"
                  : "foreign-field-kept";
          f.check(
              id,
              JsonValue.equal(was, now),
              path + " was " + JsonValue.text(was) + ", now " + JsonValue.text(now));
        });
    f.none("live-holds-desired", holds(changed, List.of()));
    f.throwIfAny();
    return "kept " + subject.foreignPaths();
  }

  private String removal(Subject subject, String name) {
    HasMetadata base = subject.desired(namespace, name, Variant.BASE);
    apply(target.strategy(), base);
    HasMetadata without = subject.desired(namespace, name, Variant.WITHOUT_REMOVABLE);
    apply(target.strategy(), without);
    Map<String, Object> after = judge.require(base);
    Findings f = new Findings();
    for (String p : subject.removablePaths()) {
      String id = p.startsWith("metadata.") ? "label-annotation-removed" : "field-removed";
      f.check(
          id,
          FieldPath.of(p).get(after).isEmpty(),
          p
              + " still present after removal from desired: "
              + JsonValue.text(FieldPath.of(p).get(after).orElse(null)));
    }
    f.none("live-holds-desired", holds(without, List.of()));
    steady(f, subject.desired(namespace, name, Variant.WITHOUT_REMOVABLE));
    f.throwIfAny();
    return "removed " + subject.removablePaths();
  }

  private String allocations(Subject subject, String name) {
    HasMetadata base = subject.desired(namespace, name, Variant.BASE);
    apply(target.strategy(), base);
    String initial = allocationsOf(judge.require(base));
    Findings f = new Findings();
    f.require(
        "allocated", !initial.contains("clusterIP=absent"), "no clusterIP allocated: " + initial);
    List<String> steps = new ArrayList<>();
    Runnable check =
        () -> {
          String now = allocationsOf(judge.require(base));
          f.require(
              "allocations-stable",
              initial.equals(now),
              "allocations changed after " + steps + ": " + initial + " -> " + now);
        };
    apply(target.strategy(), subject.desired(namespace, name, Variant.CHANGED));
    steps.add("change");
    check.run();
    otherPatch(base, subject.foreignPatch());
    apply(target.strategy(), subject.desired(namespace, name, Variant.BASE));
    steps.add("revert after foreign change");
    check.run();
    apply(target.strategy(), subject.desired(namespace, name, Variant.WITHOUT_REMOVABLE));
    steps.add("removal");
    check.run();
    apply(target.strategy(), subject.desired(namespace, name, Variant.CHANGED));
    steps.add("change again");
    check.run();
    return "stable " + initial;
  }

  private String concurrent(Subject subject, String name) {
    HasMetadata base = subject.desired(namespace, name, Variant.BASE);
    apply(target.strategy(), base);
    // Stale read: the cache still shows the object as it was before another writer's change.
    HasMetadata snapshot = other.resource(base).get();
    otherPatch(base, "{\"metadata\":{\"annotations\":{\"other.example/concurrent\":\"1\"}}}");
    HasMetadata changed = subject.desired(namespace, name, Variant.CHANGED);
    counter.reset();
    StrategyContext stale = new StaleContext(strategyClient, FIELD_MANAGER, snapshot);
    int othersWrites;
    try (ObjectWrites writes = ObjectWrites.of(other, base)) {
      target.strategy().apply(changed, stale);
      // the strategy's own successful write is one of them; the rest are other writers' (the
      // kind's controller updating its status), each of which may cost the strategy one retry
      othersWrites = Math.max(0, writes.count() - 1);
    }
    List<String> staleWrites = counter.writes();
    Findings f = new Findings();
    f.none("stale-read-converges", holds(changed, List.of()));
    f.check(
        "other-writer-kept",
        "1".equals(annotation(base, "other.example/concurrent")),
        "the other writer's annotation was lost");
    f.check(
        "bounded-retries",
        staleWrites.size() <= 3 + othersWrites,
        "too many writes for one stale read ("
            + othersWrites
            + " writes by others meanwhile): "
            + staleWrites);

    // A writer that changes the object right before every write this strategy sends.
    AtomicInteger bumps = new AtomicInteger();
    String path = "/" + name;
    counter.reset();
    counter.beforeEachWrite(
        request -> {
          if (request.uri().getRawPath().endsWith(path)) {
            otherPatch(
                base,
                "{\"metadata\":{\"annotations\":{\"other.example/counter\":\""
                    + bumps.incrementAndGet()
                    + "\"}}}");
          }
        });
    String ending;
    try {
      ApplyResult<HasMetadata> result =
          apply(target.strategy(), subject.desired(namespace, name, Variant.BASE));
      ending = "converged (" + result.outcome() + ")";
      f.none("busy-writer-converges", holds(base, List.of()));
    } catch (RuntimeException e) {
      String message = String.valueOf(e.getMessage());
      f.check(
          "error-names-resource",
          message.contains(name),
          "error does not name the resource: " + message);
      ending = "gave up with: " + message.substring(0, Math.min(message.length(), 160));
    } finally {
      counter.beforeEachWrite(r -> {});
    }
    List<String> busyWrites = counter.writes();
    f.check(
        "bounded-retries",
        busyWrites.size() <= MAX_CONCURRENT_WRITES,
        "retried without end: " + busyWrites.size() + " writes");
    String last = annotation(base, "other.example/counter");
    f.check(
        "other-writer-kept",
        String.valueOf(bumps.get()).equals(last),
        "the busy writer's last change (" + bumps.get() + ") was lost; live has " + last);
    f.throwIfAny();
    return "stale read: "
        + staleWrites.size()
        + " write(s); busy writer: "
        + busyWrites.size()
        + " write(s), "
        + ending;
  }

  private String immutable(Subject subject, String name) {
    HasMetadata base = subject.desired(namespace, name, Variant.IMMUTABLE_BASE);
    apply(target.strategy(), base);
    // As in the change scenario: a controller's status write racing the one write counted here
    // would turn into legitimate conflict retries and hide whether the 422 itself was retried.
    settle(base);
    HasMetadata changed = subject.desired(namespace, name, Variant.IMMUTABLE_CHANGED);
    counter.reset();
    Findings f = new Findings();
    try {
      apply(target.strategy(), changed);
    } catch (RuntimeException e) {
      String message = String.valueOf(e.getMessage());
      f.check(
          "error-names-field",
          message.contains(subject.immutableField()),
          "error does not name " + subject.immutableField() + ": " + message);
      f.check(
          "no-retry",
          counter.writes().size() <= 2,
          "retried a permanent error: " + counter.writes());
      f.throwIfAny();
      return "error: " + message.substring(0, Math.min(message.length(), 200));
    }
    throw ExpectationFailure.of(
        "refused", "a change of " + subject.immutableField() + " was accepted");
  }

  private String switches(Subject subject, String name) {
    List<String> notes = new ArrayList<>();
    for (ConformanceTarget peer : peers) {
      notes.add(
          switchOnce(
              subject, name + "-from-" + peer.name().replaceAll("[^a-z0-9]", ""), peer, target));
      notes.add(
          switchOnce(
              subject, name + "-to-" + peer.name().replaceAll("[^a-z0-9]", ""), target, peer));
    }
    return String.join("; ", notes);
  }

  private String switchOnce(
      Subject subject, String name, ConformanceTarget from, ConformanceTarget to) {
    String label = from.name() + "→" + to.name();
    HasMetadata base = subject.desired(namespace, name, Variant.BASE);
    apply(from.strategy(), base);
    apply(from.strategy(), subject.desired(namespace, name, Variant.CHANGED));
    apply(to.strategy(), subject.desired(namespace, name, Variant.BASE));
    Findings f = new Findings();
    f.none(
        "converges-after-switch",
        holds(base, List.of()).stream().map(l -> label + ": " + l).toList());
    counter.reset();
    ApplyResult<HasMetadata> again =
        apply(to.strategy(), subject.desired(namespace, name, Variant.BASE));
    f.check(
        "steady-after-switch",
        again.outcome() == ApplyOutcome.UNCHANGED && counter.writes().isEmpty(),
        label
            + ": second apply after the switch was "
            + again.outcome()
            + " with writes "
            + counter.writes());
    HasMetadata without = subject.desired(namespace, name, Variant.WITHOUT_REMOVABLE);
    apply(to.strategy(), without);
    Map<String, Object> after = judge.require(base);
    List<String> left =
        subject.removablePaths().stream()
            .filter(p -> FieldPath.of(p).get(after).isPresent())
            .toList();
    f.check(
        "removal-after-switch",
        left.isEmpty(),
        label + ": still present after removal from desired: " + left);
    f.throwIfAny();
    return label + " ok";
  }

  /** Applying the same desired once more must send nothing: the strategy does not loop. */
  private void steady(Findings f, HasMetadata desired) {
    counter.reset();
    ApplyResult<HasMetadata> again = apply(target.strategy(), desired);
    f.check(
        "steady",
        again.outcome() == ApplyOutcome.UNCHANGED && counter.writes().isEmpty(),
        "applying the same desired again was "
            + again.outcome()
            + " with writes "
            + counter.writes());
  }

  /** Where live differs from a fresh create of desired, for the fields desired names. */
  private List<String> holds(HasMetadata desired, List<?> foreignElements) {
    Map<String, Object> fresh = judge.freshCreate(desired);
    return Judge.holdsDesired(
        JsonValue.tree(desired), judge.require(desired), fresh, foreignElements);
  }

  /**
   * Waits until controllers stop writing the object (its resourceVersion holds still for a second),
   * so that a status update by the Deployment or StatefulSet controller does not race the one write
   * the change scenario counts.
   */
  private void settle(HasMetadata desired) {
    AtomicReference<String> last = new AtomicReference<>("");
    AtomicInteger stable = new AtomicInteger();
    Awaitility.await(Judge.describe(desired) + " settles")
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(250))
        .until(
            () -> {
              String rv = other.resource(desired).get().getMetadata().getResourceVersion();
              if (rv.equals(last.getAndSet(rv))) {
                return stable.incrementAndGet() >= 4;
              }
              stable.set(0);
              return false;
            });
  }

  private ApplyResult<HasMetadata> apply(ResourceStrategy strategy, HasMetadata desired) {
    return strategy.apply(desired, new DirectStrategyContext(strategyClient, FIELD_MANAGER));
  }

  private String annotation(HasMetadata ref, String key) {
    return FieldPath.of("metadata.annotations[\"" + key + "\"]")
        .get(judge.require(ref))
        .map(String::valueOf)
        .orElse(null);
  }

  private void otherPatch(HasMetadata desired, String json) {
    PatchContext context = PatchContext.of(PatchType.JSON_MERGE);
    context.setFieldManager(OTHER_MANAGER);
    other.resource(desired).patch(context, json);
  }

  /**
   * Everything a user would call content: no status, of metadata only labels, finalizers and
   * annotations other than the ones controllers and strategies keep for themselves.
   */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> comparable(Map<String, Object> tree, FieldPath without) {
    Map<String, Object> copy = Judge.content(tree);
    Map<String, Object> metadata = (Map<String, Object>) copy.get("metadata");
    if (metadata.get("annotations") instanceof Map<?, ?> annotations) {
      Map<String, Object> filtered = new LinkedHashMap<>();
      annotations.forEach(
          (k, v) -> {
            if (!String.valueOf(k).contains("kubernetes.io/")
                && !String.valueOf(k).startsWith("converge.dev/")) {
              filtered.put((String) k, v);
            }
          });
      metadata.put("annotations", filtered);
    }
    without.remove(copy);
    return copy;
  }

  private static String allocationsOf(Map<String, Object> service) {
    List<Object> nodePorts = new ArrayList<>();
    if (FieldPath.of("spec.ports").get(service).orElse(null) instanceof List<?> ports) {
      for (Object p : ports) {
        nodePorts.add(p instanceof Map<?, ?> m ? m.get("nodePort") : null);
      }
    }
    return "clusterIP="
        + text(service, "spec.clusterIP")
        + " clusterIPs="
        + text(service, "spec.clusterIPs")
        + " nodePorts="
        + nodePorts
        + " healthCheckNodePort="
        + text(service, "spec.healthCheckNodePort");
  }

  private static String text(Map<String, Object> tree, String path) {
    return FieldPath.of(path).get(tree).map(String::valueOf).orElse("absent");
  }
}
