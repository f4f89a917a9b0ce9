package dev.converge.testing.operator.internal;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/** Records every write request (method and path) a client sends, retries included. */
public final class WriteRecorder implements Interceptor {

  /** The name it is registered under in the client's HTTP client. */
  public static final String NAME = "converge-test-write-recorder";

  private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

  private final ConcurrentLinkedQueue<String> writes = new ConcurrentLinkedQueue<>();

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    if (WRITES.contains(request.method())) {
      writes.add(request.method() + " " + request.uri().getPath());
    }
  }

  public List<String> writes() {
    return List.copyOf(writes);
  }
}
