package dev.converge.testing.conformance.fuzz.internal;

import dev.converge.testing.conformance.FieldPath;
import java.util.List;
import java.util.Map;

/**
 * One kind of the fuzzer's corpus: a realistic object, the paths no update may change (immutable
 * fields; they are never mutated), the union switches worth trying, and fields desired never sets
 * that another actor may set.
 *
 * @param label the name in reports, e.g. {@code Service (NodePort)}
 * @param shortName used in object names
 * @param file the corpus file (YAML, {@code __NAME__} stands for the object's name)
 * @param frozen paths (and everything below) that are never mutated
 * @param unions curated one-of switches (a volume's source, a Deployment's strategy, ...)
 * @param foreignFields JSON pointer to value of fields another actor may set
 * @param scalable whether objects of the kind have a {@code /scale} subresource another actor
 *     writes {@code spec.replicas} through (an autoscaler, {@code kubectl scale})
 * @param statusFields JSON pointer to value of status fields another actor writes through {@code
 *     /status} and no controller of the local cluster overwrites (a load-balancer controller's
 *     address)
 */
public record CorpusKind(
    String label,
    String shortName,
    String file,
    List<FieldPath> frozen,
    List<Mutation> unions,
    Map<String, Object> foreignFields,
    boolean scalable,
    Map<String, Object> statusFields) {

  public CorpusKind {
    frozen = List.copyOf(frozen);
    unions = List.copyOf(unions);
    foreignFields = Map.copyOf(foreignFields);
    statusFields = Map.copyOf(statusFields);
  }

  /** A kind without subresources another actor writes through. */
  public CorpusKind(
      String label,
      String shortName,
      String file,
      List<FieldPath> frozen,
      List<Mutation> unions,
      Map<String, Object> foreignFields) {
    this(label, shortName, file, frozen, unions, foreignFields, false, Map.of());
  }

  /** This kind with a {@code /scale} subresource. */
  public CorpusKind withScale() {
    return new CorpusKind(
        label, shortName, file, frozen, unions, foreignFields, true, statusFields);
  }

  /** This kind with status fields another actor writes through {@code /status}. */
  public CorpusKind withStatus(Map<String, Object> fields) {
    return new CorpusKind(label, shortName, file, frozen, unions, foreignFields, scalable, fields);
  }

  /** Whether {@code path} is at or below a frozen path. */
  public boolean isFrozen(FieldPath path) {
    return frozen.stream().anyMatch(f -> f.covers(path));
  }
}
