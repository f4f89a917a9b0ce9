package dev.converge.operator.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.operator.OperatorHealth;
import dev.converge.operator.OperatorState;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ProbeServerTest {

  private static final OperatorHealth HEALTHY =
      new OperatorHealth(true, true, OperatorState.RUNNING, true, Optional.of("pod-a"), List.of());
  private static final OperatorHealth SYNCING =
      new OperatorHealth(
          true,
          false,
          OperatorState.RUNNING,
          false,
          Optional.empty(),
          List.of("informer caches have not synced yet"));

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void probesAnswerWithTheCurrentHealthAndMetricsWithTheSuppliedText() throws Exception {
    AtomicReference<OperatorHealth> health = new AtomicReference<>(SYNCING);
    try (ProbeServer probes = ProbeServer.start(0, health::get, () -> "reconciles_total 3\n")) {
      HttpResponse<String> notReady = get(probes, "/readyz", "GET");
      assertThat(notReady.statusCode()).isEqualTo(503);
      assertThat(notReady.body())
          .startsWith("not ok\n")
          .contains("caches synced: false")
          .contains("problem: informer caches have not synced yet");
      assertThat(get(probes, "/healthz", "GET").statusCode()).isEqualTo(200);

      health.set(HEALTHY);
      HttpResponse<String> ready = get(probes, "/readyz", "GET");
      assertThat(ready.statusCode()).isEqualTo(200);
      assertThat(ready.body())
          .isEqualTo("ok\nstate: RUNNING\ncaches synced: true\nleader: pod-a\n");

      HttpResponse<String> metrics = get(probes, "/metrics", "GET");
      assertThat(metrics.body()).isEqualTo("reconciles_total 3\n");
      assertThat(metrics.headers().firstValue("Content-Type"))
          .contains(ProbeServer.METRICS_CONTENT_TYPE);

      HttpResponse<String> head = get(probes, "/healthz", "HEAD");
      assertThat(head.statusCode()).isEqualTo(200);
      assertThat(head.body()).isEmpty();
    }
  }

  @Test
  void aPortInUseIsRefusedNamingThePort() throws Exception {
    try (ProbeServer first = ProbeServer.start(0, () -> HEALTHY, () -> "")) {
      int port = first.port();
      assertThatThrownBy(() -> ProbeServer.start(port, () -> HEALTHY, () -> ""))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("HTTP port " + port)
          .hasMessageContaining("0 for any");
    }
  }

  private HttpResponse<String> get(ProbeServer probes, String path, String method)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://localhost:" + probes.port() + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
