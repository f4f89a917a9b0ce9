package dev.converge.operator.internal;

import dev.converge.operator.LeaseLostException;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.impl.KubernetesClientImpl;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A client on the same connections as the operator's that sends no write unless a {@link
 * LeaseFence} allows it: every POST, PUT, PATCH and DELETE, each attempt of it (fabric8 retries
 * included), is checked right before it is handed to the HTTP client, and may take no longer than
 * what is left of the fence. Reads and access reviews (which change nothing) pass.
 *
 * <p>The client shares the operator client's HTTP client, connection pool and JSON mapping; it must
 * never be closed, since closing it would close the operator's client too.
 */
public final class FencedClient {

  private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

  private FencedClient() {}

  /** {@code client}'s view whose writes pass through {@code fence}. */
  public static KubernetesClient of(KubernetesClient client, LeaseFence fence) {
    HttpClient http =
        client
            .getHttpClient()
            .newBuilder()
            .addOrReplaceInterceptor("converge-lease-fence", new FenceCheck(fence))
            .build();
    return new KubernetesClientImpl(
        http,
        client.getConfiguration(),
        () -> ((io.fabric8.kubernetes.client.impl.BaseClient) client).getExecutor(),
        client.getKubernetesSerialization()) {
      @Override
      public void close() {
        // shares the operator's HTTP client and executor: nothing of its own to close
      }
    };
  }

  /** True when {@code client} can be fenced: a fabric8 client of the standard implementation. */
  public static boolean supports(KubernetesClient client) {
    return client instanceof io.fabric8.kubernetes.client.impl.BaseClient;
  }

  private static final class FenceCheck implements Interceptor {
    private final LeaseFence fence;

    FenceCheck(LeaseFence fence) {
      this.fence = fence;
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
      String method = request.method().toUpperCase(Locale.ROOT);
      if (READS.contains(method) || isReview(request.uri().getPath())) {
        return;
      }
      long remaining = fence.check(method + " " + request.uri().getPath());
      if (builder instanceof HttpRequest.Builder full) {
        // A write that passed the fence may not outlive it: the client gives up on it instead.
        full.timeout(Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining)), TimeUnit.MILLISECONDS);
      }
    }

    /** Access reviews are POSTs that write nothing. */
    private static boolean isReview(String path) {
      return path.startsWith("/apis/authorization.k8s.io/")
          || path.startsWith("/apis/authentication.k8s.io/");
    }
  }

  /** Whether {@code failure} means a write was held back by the fence. */
  public static boolean fenced(Throwable failure) {
    return LeaseLostException.isCause(failure);
  }
}
