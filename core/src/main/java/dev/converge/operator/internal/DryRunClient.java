package dev.converge.operator.internal;

import dev.converge.client.Clients;
import dev.converge.event.EventRecorder;
import dev.converge.event.EventType;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client for the operator's configuration and JSON mapping that sends every write as a
 * server-side dry run ({@code ?dryRun=All}): the API server validates, defaults, admits and answers
 * each POST, PUT, PATCH and DELETE as it would for real, and persists nothing. An OkHttp network
 * interceptor adds the parameter on the thread that sends the request, right before it is written
 * to the connection, so no write of this client can leave the process without it, whoever sends it
 * (a strategy, the status writer, a finalizer, a reconciler through its context). Each write and
 * the server's answer go to a {@link DryRunRecorder}. Reads, access reviews (which change nothing)
 * and writes that already are dry runs (a strategy's own probe of the server's defaults) pass
 * unchanged and unrecorded.
 *
 * <p>The client has connections of its own; the operator closes it when it stops.
 */
public final class DryRunClient {

  private static final Logger log = LoggerFactory.getLogger(DryRunClient.class);

  private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

  private DryRunClient() {}

  /** A client like {@code client} whose writes are dry runs, each told to {@code recorder}. */
  public static KubernetesClient of(KubernetesClient client, DryRunRecorder recorder) {
    Config config = client.getConfiguration();
    KubernetesClientBuilder builder =
        Clients.builder(List.of(new DryRunInterceptor(recorder)))
            .withConfig(config != null ? config : Config.empty());
    KubernetesSerialization serialization = client.getKubernetesSerialization();
    if (serialization != null) {
      builder.withKubernetesSerialization(serialization);
    }
    return builder.build();
  }

  /** Whether a request with this method and path could change anything on the API server. */
  static boolean isWrite(String method, String path) {
    return !READS.contains(method.toUpperCase(Locale.ROOT))
        && !path.startsWith("/apis/authorization.k8s.io/")
        && !path.startsWith("/apis/authentication.k8s.io/");
  }

  /** Makes each write a dry run and records it with the server's answer. */
  static final class DryRunInterceptor implements okhttp3.Interceptor {
    private final DryRunRecorder recorder;

    DryRunInterceptor(DryRunRecorder recorder) {
      this.recorder = recorder;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
      Request request = chain.request();
      String path = request.url().encodedPath();
      if (!isWrite(request.method(), path) || request.url().queryParameter("dryRun") != null) {
        return chain.proceed(request);
      }
      Request dryRun =
          request
              .newBuilder()
              .url(request.url().newBuilder().addQueryParameter("dryRun", "All").build())
              .build();
      byte[] sent = bytes(request.body());
      String contentType =
          request.body() != null && request.body().contentType() != null
              ? request.body().contentType().toString()
              : "";
      Response response = chain.proceed(dryRun);
      ResponseBody body = response.body();
      if (body == null) {
        recorder.written(
            new DryRunRecorder.Write(
                request.method(),
                request.url().newBuilder().query(null).build().toString(),
                contentType,
                new String(sent, StandardCharsets.UTF_8),
                response.code(),
                ""));
        return response;
      }
      MediaType type = body.contentType();
      byte[] answer = body.bytes();
      recorder.written(
          new DryRunRecorder.Write(
              request.method(),
              request.url().newBuilder().query(null).build().toString(),
              contentType,
              new String(sent, StandardCharsets.UTF_8),
              response.code(),
              new String(answer, StandardCharsets.UTF_8)));
      return response.newBuilder().body(ResponseBody.create(answer, type)).build();
    }

    private static byte[] bytes(RequestBody body) throws IOException {
      if (body == null || body.isOneShot()) {
        return new byte[0]; // a one-shot body can be read only by the connection
      }
      Buffer buffer = new Buffer();
      body.writeTo(buffer);
      return buffer.readByteArray();
    }
  }

  /** A recorder that sends no Event and logs each, for a dry run. */
  public static EventRecorder unsentEvents(String operatorName) {
    return new EventRecorder() {
      @Override
      public void record(HasMetadata involved, EventType type, String reason, String message) {
        log.debug(
            "operator {}: dry run: {} Event {} on {} {} not sent: {}",
            operatorName,
            type,
            reason,
            involved.getKind(),
            involved.getMetadata().getName(),
            message);
      }

      @Override
      public Set<String> verbs() {
        return Set.of();
      }
    };
  }
}
