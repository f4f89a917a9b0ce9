package dev.converge.strategy.probe;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.ArrayList;
import java.util.List;

/**
 * Records every request other than a read that a client sends (retries included); server-side dry
 * runs, which store nothing, are recorded apart.
 */
final class WireWrites implements Interceptor {

  private final List<String> writes = new ArrayList<>();
  private final List<String> dryRuns = new ArrayList<>();

  @Override
  public synchronized void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    if (!"GET".equals(request.method())) {
      String query = request.uri().getRawQuery();
      (query != null && query.contains("dryRun=") ? dryRuns : writes)
          .add(request.method() + " " + request.uri().getPath());
    }
  }

  synchronized void reset() {
    writes.clear();
    dryRuns.clear();
  }

  synchronized List<String> dryRuns() {
    return List.copyOf(dryRuns);
  }

  synchronized List<String> writes() {
    return List.copyOf(writes);
  }
}
