package dev.converge.testing.conformance.internal;

import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.DirectStrategyContext;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategyContext;
import dev.converge.strategy.tree.Containment;
import dev.converge.strategy.tree.DesiredState;
import dev.converge.strategy.tree.ResourceTree;
import dev.converge.testing.conformance.ConformanceTarget;
import dev.converge.testing.conformance.Scenario;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.time.Duration;
import org.awaitility.Awaitility;

/**
 * Runs one scenario on one subject against the real API server. Each scenario uses objects of its
 * own; a failed expectation is an {@link AssertionError} whose message says what was observed.
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
  private final String namespace;

  public ScenarioRunner(ConformanceTarget target, List<ConformanceTarget> peers, String noPeersReason,
      KubernetesClient strategyClient, WriteCounter counter, KubernetesClient other, String namespace) {
    this.target = target;
    this.peers = List.copyOf(peers);
    this.noPeersReason = noPeersReason;
    this.strategyClient = strategyClient;
    this.counter = counter;
    this.other = other;
    this.namespace = namespace;
  }

  /** Whether {@code scenario} means anything for {@code subject} with this configuration. */
  public String notRunReason(Scenario scenario, Subject subject) {
    if (scenario == Scenario.ALLOCATIONS && !subject.service()) {
      return "only Services have allocated fields";
    }
    if (scenario == Scenario.SWITCH && peers.isEmpty()) {
      return noPeersReason;
    }
    return null;
  }

  /** Runs the scenario; returns a short note of what was observed, or throws AssertionError. */
  public String run(Scenario scenario, Subject subject) {
    String name = subject.shortName() + "-" + scenario.number() + "-" + target.name().replaceAll("[^a-z0-9]", "");
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
    expect(result.outcome() == ApplyOutcome.CREATED, "outcome " + result.outcome() + ", expected CREATED");
    HasMetadata live = fetch(desired);
    expect(live != null, "object absent after apply");
    expectContains(live, desired, "after create");
    return "writes: " + counter.writes();
  }

  private String noOp(Subject subject, String name) {
    HasMetadata desired = subject.desired(namespace, name, Variant.BASE);
    apply(target.strategy(), desired);
    // Let the controllers finish (status, revision annotations) so live differs from desired as much as it will.
    settle(desired);
    counter.reset();
    ApplyResult<HasMetadata> result = apply(target.strategy(), subject.desired(namespace, name, Variant.BASE));
    expect(result.outcome() == ApplyOutcome.UNCHANGED, "outcome " + result.outcome() + " (" + result.request() + "), expected UNCHANGED");
    expect(counter.writes().isEmpty(), "write requests sent: " + counter.writes());
    return "0 writes" + (counter.dryRuns().isEmpty() ? "" : ", dry runs: " + counter.dryRuns().size());
  }

  private String change(Subject subject, String name) {
    HasMetadata base = subject.desired(namespace, name, Variant.BASE);
    apply(target.strategy(), base);
    settle(base);
    Map<String, Object> before = ResourceTree.of(fetch(base));
    HasMetadata changed = subject.desired(namespace, name, Variant.CHANGED);
    counter.reset();
    ApplyResult<HasMetadata> result = apply(target.strategy(), changed);
    List<String> writes = counter.writes();
    expect(result.outcome() == ApplyOutcome.UPDATED, "outcome " + result.outcome() + ", expected UPDATED");
    expect(writes.size() == 1, "expected one write, sent " + writes);
    Map<String, Object> after = ResourceTree.of(fetch(base));
    TreePath path = TreePath.of(subject.changedPath());
    expect(Containment.contains(path.get(after), path.get(DesiredState.of(changed))),
        subject.changedPath() + " is " + path.get(after) + ", expected " + path.get(DesiredState.of(changed)));
    Map<String, Object> restBefore = comparable(before, path);
    Map<String, Object> restAfter = comparable(after, path);
    expect(ResourceTree.canonicalJson(restBefore).equals(ResourceTree.canonicalJson(restAfter)),
        "more than " + subject.changedPath() + " changed: before " + ResourceTree.canonicalJson(restBefore)
            + " after " + ResourceTree.canonicalJson(restAfter));
    expectSteady(subject.desired(namespace, name, Variant.CHANGED), "after the change");
    return "1 write: " + result.request();
  }

  private String drift(Subject subject, String name) {
    HasMetadata base = subject.desired(namespace, name, Variant.BASE);
    apply(target.strategy(), base);
    otherPatch(base, subject.driftPatch());
    expect(!Containment.contains(ResourceTree.of(fetch(base)), DesiredState.of(base)), "drift patch changed nothing");
    ApplyResult<HasMetadata> result = apply(target.strategy(), subject.desired(namespace, name, Variant.BASE));
    expect(result.outcome() == ApplyOutcome.UPDATED, "outcome " + result.outcome() + ", expected UPDATED");
    expectContains(fetch(base), base, "after restoring");
    return "restored with " + result.request();
  }

  private String foreign(Subject subject, String name) {
    HasMetadata base = subject.desired(namespace, name, Variant.BASE);
    apply(target.strategy(), base);
    otherPatch(base, subject.foreignPatch());
    Map<String, Object> patched = ResourceTree.of(fetch(base));
    Map<String, Object> expected = new LinkedHashMap<>();
    for (String p : subject.foreignPaths()) {
      Object value = TreePath.of(p).get(patched);
      expect(value != null, "foreign patch did not set " + p);
      expected.put(p, value);
    }
    HasMetadata changed = subject.desired(namespace, name, Variant.CHANGED);
    ApplyResult<HasMetadata> result = apply(target.strategy(), changed);
    expect(result.outcome() == ApplyOutcome.UPDATED, "outcome " + result.outcome() + ", expected UPDATED");
    Map<String, Object> after = ResourceTree.of(fetch(base));
    List<String> lost = new ArrayList<>();
    expected.forEach((p, v) -> {
      if (!Objects.equals(String.valueOf(v), String.valueOf(TreePath.of(p).get(after)))) {
        lost.add(p + " (was " + v + ", now " + TreePath.of(p).get(after) + ")");
      }
    });
    expect(lost.isEmpty(), "fields set by another actor were lost: " + lost);
    expectContains(fetch(base), changed, "after update");
    return "kept " + subject.foreignPaths();
  }

  private String removal(Subject subject, String name) {
    HasMetadata base = subject.desired(namespace, name, Variant.BASE);
    apply(target.strategy(), base);
    HasMetadata without = subject.desired(namespace, name, Variant.WITHOUT_REMOVABLE);
    apply(target.strategy(), without);
    Map<String, Object> after = ResourceTree.of(fetch(base));
    List<String> left = subject.removablePaths().stream().filter(p -> TreePath.of(p).get(after) != null).toList();
    expect(left.isEmpty(), "still present after removal from desired: " + left);
    expectContains(fetch(base), without, "after removal");
    expectSteady(subject.desired(namespace, name, Variant.WITHOUT_REMOVABLE), "after the removal");
    return "removed " + subject.removablePaths();
  }

  private String allocations(Subject subject, String name) {
    HasMetadata base = subject.desired(namespace, name, Variant.BASE);
    apply(target.strategy(), base);
    String initial = allocationsOf(fetch(base));
    expect(!initial.contains("clusterIP=null"), "no clusterIP allocated: " + initial);
    List<String> steps = new ArrayList<>();
    Runnable check = () -> {
      String now = allocationsOf(fetch(base));
      expect(initial.equals(now), "allocations changed after " + steps + ": " + initial + " -> " + now);
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
    HasMetadata snapshot = fetch(base);
    otherPatch(base, "{\"metadata\":{\"annotations\":{\"other.example/concurrent\":\"1\"}}}");
    HasMetadata changed = subject.desired(namespace, name, Variant.CHANGED);
    counter.reset();
    StrategyContext stale = new StaleContext(strategyClient, FIELD_MANAGER, snapshot);
    target.strategy().apply(changed, stale);
    List<String> staleWrites = counter.writes();
    HasMetadata after = fetch(base);
    expectContains(after, changed, "after a write based on a stale read");
    expect("1".equals(after.getMetadata().getAnnotations().get("other.example/concurrent")),
        "the other writer's annotation was lost");
    expect(staleWrites.size() <= 3, "too many writes for one stale read: " + staleWrites);

    // A writer that changes the object right before every write this strategy sends.
    AtomicInteger bumps = new AtomicInteger();
    String path = "/" + name;
    counter.reset();
    counter.beforeEachWrite(request -> {
      if (request.uri().getRawPath().endsWith(path)) {
        otherPatch(base, "{\"metadata\":{\"annotations\":{\"other.example/counter\":\"" + bumps.incrementAndGet() + "\"}}}");
      }
    });
    String ending;
    try {
      ApplyResult<HasMetadata> result = apply(target.strategy(), subject.desired(namespace, name, Variant.BASE));
      ending = "converged (" + result.outcome() + ")";
      expectContains(fetch(base), base, "after writing against a busy writer");
    } catch (AssertionError e) {
      throw e;
    } catch (RuntimeException e) {
      String message = String.valueOf(e.getMessage());
      expect(message.contains(name), "error does not name the resource: " + message);
      ending = "gave up with: " + message.substring(0, Math.min(message.length(), 160));
    } finally {
      counter.beforeEachWrite(r -> {});
    }
    List<String> busyWrites = counter.writes();
    expect(busyWrites.size() <= MAX_CONCURRENT_WRITES, "retried without end: " + busyWrites.size() + " writes");
    String last = fetch(base).getMetadata().getAnnotations().get("other.example/counter");
    expect(String.valueOf(bumps.get()).equals(last),
        "the busy writer's last change (" + bumps.get() + ") was lost; live has " + last);
    return "stale read: " + staleWrites.size() + " write(s); busy writer: " + busyWrites.size() + " write(s), " + ending;
  }

  private String immutable(Subject subject, String name) {
    HasMetadata base = subject.desired(namespace, name, Variant.IMMUTABLE_BASE);
    apply(target.strategy(), base);
    // As in the change scenario: a controller's status write racing the one write counted here
    // would turn into legitimate conflict retries and hide whether the 422 itself was retried.
    settle(base);
    HasMetadata changed = subject.desired(namespace, name, Variant.IMMUTABLE_CHANGED);
    counter.reset();
    try {
      apply(target.strategy(), changed);
    } catch (RuntimeException e) {
      String message = String.valueOf(e.getMessage());
      expect(message.contains(subject.immutableField()),
          "error does not name " + subject.immutableField() + ": " + message);
      expect(counter.writes().size() <= 2, "retried a permanent error: " + counter.writes());
      return "error: " + message.substring(0, Math.min(message.length(), 200));
    }
    throw new AssertionError("a change of " + subject.immutableField() + " was accepted");
  }

  private String switches(Subject subject, String name) {
    List<String> notes = new ArrayList<>();
    for (ConformanceTarget peer : peers) {
      notes.add(switchOnce(subject, name + "-from-" + peer.name().replaceAll("[^a-z0-9]", ""), peer, target));
      notes.add(switchOnce(subject, name + "-to-" + peer.name().replaceAll("[^a-z0-9]", ""), target, peer));
    }
    return String.join("; ", notes);
  }

  private String switchOnce(Subject subject, String name, ConformanceTarget from, ConformanceTarget to) {
    String label = from.name() + "→" + to.name();
    HasMetadata base = subject.desired(namespace, name, Variant.BASE);
    apply(from.strategy(), base);
    apply(from.strategy(), subject.desired(namespace, name, Variant.CHANGED));
    apply(to.strategy(), subject.desired(namespace, name, Variant.BASE));
    expectContains(fetch(base), base, label + ": first apply after the switch");
    counter.reset();
    ApplyResult<HasMetadata> again = apply(to.strategy(), subject.desired(namespace, name, Variant.BASE));
    expect(again.outcome() == ApplyOutcome.UNCHANGED && counter.writes().isEmpty(),
        label + ": second apply after the switch was " + again.outcome() + " with writes " + counter.writes());
    HasMetadata without = subject.desired(namespace, name, Variant.WITHOUT_REMOVABLE);
    apply(to.strategy(), without);
    Map<String, Object> after = ResourceTree.of(fetch(base));
    List<String> left = subject.removablePaths().stream().filter(p -> TreePath.of(p).get(after) != null).toList();
    if (!left.isEmpty() && to.limits().containsKey(Scenario.REMOVAL)) {
      return label + " converges (removal not checked: " + to.name() + " declares it unsupported)";
    }
    expect(left.isEmpty(), label + ": still present after removal from desired: " + left);
    return label + " ok";
  }

  /** Applying the same desired once more must send nothing: the strategy does not loop. */
  private void expectSteady(HasMetadata desired, String when) {
    counter.reset();
    ApplyResult<HasMetadata> again = apply(target.strategy(), desired);
    expect(again.outcome() == ApplyOutcome.UNCHANGED && counter.writes().isEmpty(),
        "applying the same desired again " + when + " was " + again.outcome() + " with writes " + counter.writes());
  }

  /**
   * Waits until controllers stop writing the object (its resourceVersion holds still for a second),
   * so that a status update by the Deployment or StatefulSet controller does not race the one write
   * the change scenario counts.
   */
  private void settle(HasMetadata desired) {
    AtomicReference<String> last = new AtomicReference<>("");
    AtomicInteger stable = new AtomicInteger();
    Awaitility.await(desired.getKind() + " " + desired.getMetadata().getName() + " settles")
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> {
          String rv = fetch(desired).getMetadata().getResourceVersion();
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

  private HasMetadata fetch(HasMetadata desired) {
    return other.resource(desired).get();
  }

  private void otherPatch(HasMetadata desired, String json) {
    PatchContext context = PatchContext.of(PatchType.JSON_MERGE);
    context.setFieldManager(OTHER_MANAGER);
    other.resource(desired).patch(context, json);
  }

  private static void expectContains(HasMetadata live, HasMetadata desired, String when) {
    Map<String, Object> wanted = DesiredState.of(desired);
    Map<String, Object> have = ResourceTree.of(live);
    if (!Containment.contains(have, wanted)) {
      throw new AssertionError(when + ": live does not hold desired; desired " + ResourceTree.canonicalJson(wanted)
          + " live " + ResourceTree.canonicalJson(comparable(have, null)));
    }
  }

  private static void expect(boolean condition, String message) {
    if (!condition) {
      throw new AssertionError(message);
    }
  }

  /** Everything a user would call content: no status, and only labels and annotations of metadata. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> comparable(Map<String, Object> tree, TreePath without) {
    Map<String, Object> copy = ResourceTree.copyMap(tree);
    copy.remove("status");
    Map<String, Object> metadata = (Map<String, Object>) copy.getOrDefault("metadata", new LinkedHashMap<>());
    Map<String, Object> kept = new LinkedHashMap<>();
    if (metadata.get("labels") != null) {
      kept.put("labels", metadata.get("labels"));
    }
    if (metadata.get("annotations") instanceof Map<?, ?> annotations) {
      Map<String, Object> filtered = new LinkedHashMap<>();
      annotations.forEach((k, v) -> {
        if (!String.valueOf(k).contains("kubernetes.io/") && !String.valueOf(k).startsWith("converge.dev/")) {
          filtered.put((String) k, v);
        }
      });
      kept.put("annotations", filtered);
    }
    copy.put("metadata", kept);
    if (without != null) {
      without.remove(copy);
    }
    return copy;
  }

  @SuppressWarnings("unchecked")
  private static String allocationsOf(HasMetadata service) {
    Map<String, Object> spec = ResourceTree.mapAt(ResourceTree.of(service), "spec").orElseThrow();
    List<Object> nodePorts = new ArrayList<>();
    if (spec.get("ports") instanceof List<?> ports) {
      for (Object p : ports) {
        nodePorts.add(((Map<String, Object>) p).get("nodePort"));
      }
    }
    return "clusterIP=" + spec.get("clusterIP") + " clusterIPs=" + spec.get("clusterIPs")
        + " nodePorts=" + nodePorts + " healthCheckNodePort=" + spec.get("healthCheckNodePort");
  }
}
