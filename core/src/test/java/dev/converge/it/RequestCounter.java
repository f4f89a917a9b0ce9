package dev.converge.it;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records every request a client sends (each attempt, retries included), so a test can state which
 * requests a phase of the operator's life made. Watches are kept apart: they are long-lived
 * streams, not reads.
 */
public final class RequestCounter implements Interceptor {

  private final List<String> requests = new CopyOnWriteArrayList<>();

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    String query = request.uri().getRawQuery();
    boolean watch = query != null && query.contains("watch=true");
    requests.add(
        (watch ? "WATCH" : request.method())
            + " "
            + request.uri().getRawPath()
            + (query == null ? "" : "?" + query));
  }

  public void reset() {
    requests.clear();
  }

  /** Every request since the last reset, as {@code METHOD path?query}. */
  public List<String> all() {
    return new ArrayList<>(requests);
  }

  /** Plain reads: GET of one object and LIST of a collection (watches excluded). */
  public List<String> reads() {
    return all().stream().filter(r -> r.startsWith("GET ")).toList();
  }

  /** POST, PUT, PATCH and DELETE requests. */
  public List<String> writes() {
    return all().stream()
        .filter(
            r ->
                r.startsWith("POST ")
                    || r.startsWith("PUT ")
                    || r.startsWith("PATCH ")
                    || r.startsWith("DELETE "))
        .toList();
  }
}
