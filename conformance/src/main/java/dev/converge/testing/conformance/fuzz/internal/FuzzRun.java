package dev.converge.testing.conformance.fuzz.internal;

import dev.converge.testing.conformance.fuzz.FuzzCategory;
import dev.converge.testing.conformance.fuzz.FuzzFailure;
import dev.converge.testing.conformance.fuzz.FuzzReport;
import dev.converge.testing.conformance.fuzz.FuzzSettings;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the sequences of one strategy over the corpus kinds, round robin, and shrinks each failure
 * to the smallest plan that still fails the same way.
 */
public final class FuzzRun {

  private static final Logger log = LoggerFactory.getLogger(FuzzRun.class);
  private static final int SHRINK_RUNS = 24;
  private static final int EXAMPLES_PER_KIND_AND_CATEGORY = 2;

  private final String strategyName;
  private final SequenceRunner runner;
  private final List<CorpusKind> kinds;
  private final FuzzSettings settings;
  private int names;

  public FuzzRun(
      String strategyName, SequenceRunner runner, List<CorpusKind> kinds, FuzzSettings settings) {
    this.strategyName = strategyName;
    this.runner = runner;
    this.kinds = List.copyOf(kinds);
    this.settings = settings;
  }

  /** Runs every sequence and returns the figures. */
  public FuzzReport run() {
    Map<FuzzCategory, Integer> counts = new EnumMap<>(FuzzCategory.class);
    Map<String, Integer> examplesSeen = new HashMap<>();
    List<FuzzFailure> examples = new ArrayList<>();
    int sequences = 0;
    for (int i = 0; i < settings.sequences(); i++) {
      CorpusKind kind = kinds.get(i % kinds.size());
      long seed = settings.seed() * 1_000_003L + i;
      Plan plan = runner.draw(kind, seed, settings.changes());
      SequenceRunner.Outcome outcome = runner.execute(plan, name(kind));
      sequences++;
      if (outcome.failure().isEmpty()) {
        continue;
      }
      SequenceRunner.Failure failure = outcome.failure().get();
      counts.merge(failure.category(), 1, Integer::sum);
      String key = kind.label() + "/" + failure.category();
      if (examplesSeen.merge(key, 1, Integer::sum) <= EXAMPLES_PER_KIND_AND_CATEGORY) {
        Plan minimal = shrink(plan, failure.category());
        FuzzFailure found =
            new FuzzFailure(
                strategyName,
                kind.label(),
                seed,
                failure.step(),
                failure.category(),
                failure.detail(),
                minimal.describe());
        log.warn("fuzz failure\n{}", found.describe());
        examples.add(found);
      }
      if ((i + 1) % 100 == 0) {
        log.info("{}: {} sequences run", strategyName, i + 1);
      }
    }
    return new FuzzReport(
        strategyName, sequences, runner.applies(), runner.skippedInvalid(), counts, examples);
  }

  /**
   * Removes one mutation or foreign change at a time while the plan still fails in {@code
   * category}.
   */
  private Plan shrink(Plan plan, FuzzCategory category) {
    Plan current = plan;
    int runs = 0;
    boolean progress = true;
    while (progress && runs < SHRINK_RUNS) {
      progress = false;
      for (Plan smaller : smaller(current)) {
        if (runs++ >= SHRINK_RUNS) {
          break;
        }
        SequenceRunner.Outcome outcome = runner.execute(smaller, name(current.kind()));
        Optional<SequenceRunner.Failure> f = outcome.failure();
        if (f.isPresent() && f.get().category() == category) {
          current = smaller;
          progress = true;
          break;
        }
      }
    }
    return current;
  }

  private static List<Plan> smaller(Plan plan) {
    List<Plan> out = new ArrayList<>();
    if (!plan.steps().isEmpty()) {
      out.add(
          new Plan(
              plan.kind(),
              plan.seed(),
              plan.start(),
              plan.foreign(),
              plan.steps().subList(0, plan.steps().size() - 1)));
    }
    for (int i = 0; i < plan.foreign().size(); i++) {
      out.add(
          new Plan(
              plan.kind(), plan.seed(), plan.start(), without(plan.foreign(), i), plan.steps()));
    }
    for (int i = 0; i < plan.start().size(); i++) {
      out.add(
          new Plan(
              plan.kind(), plan.seed(), without(plan.start(), i), plan.foreign(), plan.steps()));
    }
    for (int s = 0; s < plan.steps().size(); s++) {
      for (int i = 0; i < plan.steps().get(s).size(); i++) {
        List<List<Mutation>> steps = new ArrayList<>(plan.steps());
        steps.set(s, without(plan.steps().get(s), i));
        out.add(new Plan(plan.kind(), plan.seed(), plan.start(), plan.foreign(), steps));
      }
    }
    return out;
  }

  private static <T> List<T> without(List<T> list, int index) {
    List<T> copy = new ArrayList<>(list);
    copy.remove(index);
    return copy;
  }

  private String name(CorpusKind kind) {
    return "fz-" + kind.shortName() + "-" + names++;
  }
}
