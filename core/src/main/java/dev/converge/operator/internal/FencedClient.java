package dev.converge.operator.internal;

import dev.converge.client.Clients;
import dev.converge.operator.LeaseLostException;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import okhttp3.Request;
import okhttp3.Response;

/**
 * A client for the operator's configuration and JSON mapping that sends no write unless a {@link
 * LeaseFence} allows it. Every POST, PUT, PATCH and DELETE is checked twice: when fabric8 prepares
 * each attempt (its retries included), which also bounds the attempt's timeout by what is left of
 * the fence; and again by an OkHttp network interceptor on the thread that sends it, right before
 * it is written to the connection. The second check matters: a request may wait in OkHttp's queue
 * for a free slot, and a process frozen meanwhile would otherwise send, when it wakes up, a request
 * it checked before it slept. Reads and access reviews (which change nothing) pass.
 *
 * <p>The client has connections of its own; the operator closes it when it stops.
 */
public final class FencedClient {

  private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

  private FencedClient() {}

  /** A client like {@code client} whose writes pass through {@code fence}. */
  public static KubernetesClient of(KubernetesClient client, LeaseFence fence) {
    // A client that never connects (one that only computes RBAC, a test double) may have neither.
    Config config = client.getConfiguration();
    KubernetesClientBuilder builder =
        Clients.builder(List.of(new SendingCheck(fence)))
            .withConfig(config != null ? config : Config.empty())
            .withHttpClientBuilderConsumer(
                b -> b.addOrReplaceInterceptor("converge-lease-fence", new AttemptCheck(fence)));
    KubernetesSerialization serialization = client.getKubernetesSerialization();
    if (serialization != null) {
      builder.withKubernetesSerialization(serialization);
    }
    return builder.build();
  }

  /** Whether {@code failure} means a write was held back by the fence. */
  public static boolean fenced(Throwable failure) {
    return LeaseLostException.isCause(failure);
  }

  private static boolean isWrite(String method, String path) {
    return !READS.contains(method.toUpperCase(Locale.ROOT)) && !isReview(path);
  }

  /** Access reviews are POSTs that write nothing. */
  private static boolean isReview(String path) {
    return path.startsWith("/apis/authorization.k8s.io/")
        || path.startsWith("/apis/authentication.k8s.io/");
  }

  /** fabric8's check of each attempt, before it is handed to the HTTP client. */
  private static final class AttemptCheck implements Interceptor {
    private final LeaseFence fence;

    AttemptCheck(LeaseFence fence) {
      this.fence = fence;
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
      String path = request.uri().getPath();
      if (!isWrite(request.method(), path)) {
        return;
      }
      long remaining = fence.check(request.method() + " " + path);
      if (builder instanceof HttpRequest.Builder full) {
        // A write that passed the fence may not outlive it: the client gives up on it instead.
        full.timeout(Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining)), TimeUnit.MILLISECONDS);
      }
    }
  }

  /** OkHttp's check on the sending thread, right before the request is written. */
  private static final class SendingCheck implements okhttp3.Interceptor {
    private final LeaseFence fence;

    SendingCheck(LeaseFence fence) {
      this.fence = fence;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
      Request request = chain.request();
      String path = request.url().encodedPath();
      if (isWrite(request.method(), path)) {
        try {
          fence.check(request.method() + " " + path);
        } catch (LeaseLostException e) {
          throw new IOException(e.getMessage(), e); // OkHttp fails a call only with IOException
        }
      }
      return chain.proceed(request);
    }
  }
}
