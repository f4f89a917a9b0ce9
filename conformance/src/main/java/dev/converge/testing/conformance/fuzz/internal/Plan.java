package dev.converge.testing.conformance.fuzz.internal;

import java.util.List;

/**
 * One fuzz sequence, fixed so it can be replayed and shrunk: the corpus object with {@code start}
 * applied is created; another actor makes the {@code foreign} changes; then each step's mutations
 * are applied on top of the previous desired object.
 *
 * @param kind the corpus kind
 * @param seed the seed it was drawn from
 * @param start mutations of the corpus object before the first apply
 * @param foreign what another actor changes after the first apply
 * @param steps the mutations of each later desired object
 */
public record Plan(
    CorpusKind kind,
    long seed,
    List<Mutation> start,
    List<ForeignChange> foreign,
    List<List<Mutation>> steps) {

  public Plan {
    start = List.copyOf(start);
    foreign = List.copyOf(foreign);
    steps = steps.stream().map(List::copyOf).toList();
  }

  /** The number of mutations and foreign changes, which shrinking reduces. */
  public int size() {
    return start.size() + foreign.size() + steps.stream().mapToInt(List::size).sum();
  }

  /** The plan as a failure report prints it. */
  public String describe() {
    StringBuilder text = new StringBuilder();
    text.append("    kind ").append(kind.label()).append(", seed ").append(seed).append('\n');
    text.append("    desired 0 = corpus object")
        .append(start.isEmpty() ? "" : " with " + start)
        .append('\n');
    foreign.forEach(f -> text.append("    then ").append(f).append('\n'));
    for (int i = 0; i < steps.size(); i++) {
      text.append("    desired ")
          .append(i + 1)
          .append(" = desired ")
          .append(i)
          .append(" with ")
          .append(steps.get(i))
          .append('\n');
    }
    return text.toString();
  }
}
