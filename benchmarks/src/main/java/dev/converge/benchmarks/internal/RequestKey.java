package dev.converge.benchmarks.internal;

import java.util.Locale;
import java.util.Set;

/**
 * One kind of API request as the API server's authorizer sees it: a verb ({@code get}, {@code
 * list}, {@code watch}, {@code create}, {@code update}, {@code patch}, {@code delete}) and a
 * resource with its subresource ({@code appdeployments/status}), or {@code *} for any other
 * resource.
 */
public record RequestKey(String verb, String resource) implements Comparable<RequestKey> {

  /** The verbs counted; server-side apply is a {@code patch}. */
  public static final java.util.List<String> VERBS =
      java.util.List.of("get", "list", "watch", "create", "update", "patch", "delete");

  private static final Set<String> WRITES =
      Set.of("create", "update", "patch", "delete", "deletecollection");
  private static final Set<String> READS = Set.of("get", "list");

  /**
   * Reviews: a {@code create} that stores nothing, the client asking the API server whether it may
   * do something (the example's periodic check of its RBAC sends 20 SelfSubjectAccessReviews every
   * 5 minutes). Neither a write nor a read of the objects here; counted by verb and resource only.
   */
  static final Set<String> REVIEWS =
      Set.of(
          "selfsubjectaccessreviews",
          "subjectaccessreviews",
          "localsubjectaccessreviews",
          "selfsubjectrulesreviews",
          "selfsubjectreviews",
          "tokenreviews");

  /** True for create, update, patch and delete, but for the create of a review. */
  public boolean isWrite() {
    return WRITES.contains(verb) && !REVIEWS.contains(resource);
  }

  /** True for get and list (a watch is neither a read nor a write here). */
  public boolean isRead() {
    return READS.contains(verb);
  }

  /**
   * The key of an {@code apiserver_request_total} sample, whose verbs are upper case and name
   * server-side apply {@code APPLY}.
   */
  public static RequestKey fromMetric(String metricVerb, String resource, String subresource) {
    String verb =
        switch (metricVerb.toUpperCase(Locale.ROOT)) {
          case "POST" -> "create";
          case "PUT" -> "update";
          case "PATCH", "APPLY" -> "patch";
          case "DELETE" -> "delete";
          case "DELETECOLLECTION" -> "deletecollection";
          case "GET" -> "get";
          case "LIST" -> "list";
          case "WATCH", "WATCHLIST" -> "watch";
          default -> metricVerb.toLowerCase(Locale.ROOT);
        };
    String full =
        subresource == null || subresource.isEmpty() ? resource : resource + "/" + subresource;
    return new RequestKey(verb, full);
  }

  @Override
  public int compareTo(RequestKey other) {
    int byResource = resource.compareTo(other.resource);
    return byResource != 0 ? byResource : verb.compareTo(other.verb);
  }

  @Override
  public String toString() {
    return verb + " " + resource;
  }
}
