package dev.converge.testing;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The writes kube-apiserver recorded in its audit log ({@link LocalCluster#auditLog()}), for
 * judging what several clients did from the API server's own record rather than from their logs.
 */
public final class AuditLog {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  /**
   * One write as the API server recorded it.
   *
   * @param verb {@code create}, {@code update}, {@code patch}, {@code delete} or {@code
   *     deletecollection}
   * @param user the authenticated user name
   * @param userAgent the client's User-Agent header
   * @param resource the resource (plural, e.g. {@code deployments}); empty for non-resource URLs
   * @param subresource e.g. {@code status}; empty for the object itself
   * @param namespace empty for cluster-scoped objects
   * @param name the object's name; empty for a create whose name the server generated
   * @param code the HTTP status of the response
   * @param received when the API server received the request
   * @param completed when the API server completed the response
   */
  public record Write(
      String verb,
      String user,
      String userAgent,
      String resource,
      String subresource,
      String namespace,
      String name,
      int code,
      Instant received,
      Instant completed) {

    /** {@return whether the response was a 2xx: the server accepted and stored the write} */
    public boolean accepted() {
      return code >= 200 && code < 300;
    }

    /** {@return {@code resource[/subresource] namespace/name}, for messages} */
    public String describe() {
      return verb
          + " "
          + resource
          + (subresource.isEmpty() ? "" : "/" + subresource)
          + " "
          + (namespace.isEmpty() ? "" : namespace + "/")
          + name
          + " by "
          + userAgent
          + " -> "
          + code
          + " at "
          + received;
    }
  }

  private final Path file;

  /**
   * The audit log in {@code file}, read anew by each query, so a query sees every write the server
   * recorded until then; a test gets the path from {@link LocalCluster#auditLog()}.
   *
   * @param file kube-apiserver's audit log (JSON lines)
   */
  public AuditLog(Path file) {
    this.file = file;
  }

  /** {@return every write recorded so far, in the order the server recorded them} */
  public List<Write> writes() {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the audit log " + file, e);
    }
    List<Write> writes = new ArrayList<>();
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      Map<?, ?> event;
      try {
        event = JSON.unmarshal(line, Map.class);
      } catch (RuntimeException e) {
        continue; // the last line while the server is still writing it
      }
      if (!"ResponseComplete".equals(event.get("stage"))) {
        continue;
      }
      Map<?, ?> ref = map(event.get("objectRef"));
      Map<?, ?> user = map(event.get("user"));
      Map<?, ?> status = map(event.get("responseStatus"));
      writes.add(
          new Write(
              text(event.get("verb")),
              text(user.get("username")),
              text(event.get("userAgent")),
              text(ref.get("resource")),
              text(ref.get("subresource")),
              text(ref.get("namespace")),
              text(ref.get("name")),
              status.get("code") instanceof Number n ? n.intValue() : 0,
              Instant.parse(text(event.get("requestReceivedTimestamp"))),
              Instant.parse(text(event.get("stageTimestamp")))));
    }
    return writes;
  }

  /**
   * {@return the writes {@code filter} selects}
   *
   * @param filter which writes to keep
   */
  public List<Write> writes(Predicate<Write> filter) {
    return writes().stream().filter(filter).toList();
  }

  /**
   * {@return the first accepted write {@code filter} selects that was received at or after {@code
   * from}}
   *
   * @param filter which writes count
   * @param from the earliest time of receipt that counts
   */
  public Optional<Write> firstAccepted(Predicate<Write> filter, Instant from) {
    return writes().stream()
        .filter(w -> w.accepted() && !w.received().isBefore(from) && filter.test(w))
        .findFirst();
  }

  private static Map<?, ?> map(Object value) {
    return value instanceof Map<?, ?> m ? m : Map.of();
  }

  private static String text(Object value) {
    return value == null ? "" : value.toString();
  }
}
