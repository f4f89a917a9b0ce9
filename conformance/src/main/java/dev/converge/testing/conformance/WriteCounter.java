package dev.converge.testing.conformance;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Records every write request (POST, PUT, PATCH, DELETE) a client sends, retries included; dry runs
 * ({@code dryRun=All}) persist nothing and are recorded separately. Optionally runs a hook before
 * each write, which the concurrent-writer scenario uses to change the object under the strategy's
 * feet.
 *
 * <p>Part of the kit's API because a strategy's own tests ask the same question the kit does (how
 * many writes did reaching the desired state cost, and which): add it to the client with {@code
 * KubernetesClientBuilder.withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("writes",
 * counter))} and read {@link #writes()} after the reconcile.
 */
public final class WriteCounter implements Interceptor {

  /** A counter at zero; add it to the client whose writes it counts. */
  public WriteCounter() {}

  private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

  private final List<String> writes = new ArrayList<>();
  private final List<String> dryRuns = new ArrayList<>();
  private volatile Consumer<HttpRequest> beforeWrite = r -> {};

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    if (!WRITES.contains(request.method())) {
      return;
    }
    String query = request.uri().getRawQuery();
    String line = request.method() + " " + request.uri().getRawPath();
    if (query != null && query.contains("dryRun=All")) {
      synchronized (this) {
        dryRuns.add(line);
      }
      return;
    }
    synchronized (this) {
      writes.add(line);
    }
    beforeWrite.accept(request);
  }

  /** Forgets what was recorded and removes the hook. */
  public synchronized void reset() {
    writes.clear();
    dryRuns.clear();
    beforeWrite = r -> {};
  }

  /**
   * Runs {@code hook} before each (non dry-run) write until the next {@link #reset()}, on the
   * thread that sends the request; the request waits for it.
   *
   * @param hook what to do before a write, such as changing the object through another client
   */
  public void beforeEachWrite(Consumer<HttpRequest> hook) {
    this.beforeWrite = hook;
  }

  /**
   * Write requests since the last reset.
   *
   * @return the requests in the order sent, each as {@code METHOD path}
   */
  public synchronized List<String> writes() {
    return List.copyOf(writes);
  }

  /**
   * Dry-run requests since the last reset, which persist nothing and so are no writes.
   *
   * @return the requests in the order sent, each as {@code METHOD path}
   */
  public synchronized List<String> dryRuns() {
    return List.copyOf(dryRuns);
  }
}
