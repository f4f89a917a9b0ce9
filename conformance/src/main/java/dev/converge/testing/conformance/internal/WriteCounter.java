package dev.converge.testing.conformance.internal;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.List;
import java.util.function.Consumer;

/**
 * Transitional: the strategy modules' tests still import the counter from here, where it lived
 * before it joined the kit's API. It hands every call to {@link
 * dev.converge.testing.conformance.WriteCounter}; it goes away once those tests import that class,
 * together with their entries in the build's module-boundary allow-list.
 */
public final class WriteCounter implements Interceptor {

  private final dev.converge.testing.conformance.WriteCounter counter =
      new dev.converge.testing.conformance.WriteCounter();

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    counter.before(builder, request, tags);
  }

  /** See {@link dev.converge.testing.conformance.WriteCounter#reset()}. */
  public void reset() {
    counter.reset();
  }

  /** See {@link dev.converge.testing.conformance.WriteCounter#beforeEachWrite(Consumer)}. */
  public void beforeEachWrite(Consumer<HttpRequest> hook) {
    counter.beforeEachWrite(hook);
  }

  /** See {@link dev.converge.testing.conformance.WriteCounter#writes()}. */
  public List<String> writes() {
    return counter.writes();
  }

  /** See {@link dev.converge.testing.conformance.WriteCounter#dryRuns()}. */
  public List<String> dryRuns() {
    return counter.dryRuns();
  }
}
