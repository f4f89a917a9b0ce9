package dev.converge.strategy.probe;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.ArrayList;
import java.util.List;

/** Records every request other than a read that a client sends (retries included). */
final class WireWrites implements Interceptor {

  private final List<String> writes = new ArrayList<>();

  @Override
  public synchronized void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    if (!"GET".equals(request.method())) {
      writes.add(request.method() + " " + request.uri().getPath());
    }
  }

  synchronized void reset() {
    writes.clear();
  }

  synchronized List<String> writes() {
    return List.copyOf(writes);
  }
}
