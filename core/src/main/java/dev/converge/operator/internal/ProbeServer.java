package dev.converge.operator.internal;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.converge.operator.OperatorHealth;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * An operator's HTTP endpoints on one port: {@code /healthz} (liveness: {@link
 * OperatorHealth#live()}), {@code /readyz} (readiness: {@link OperatorHealth#ready()}), each 200 or
 * 503 with the health as plain text, and {@code /metrics} with whatever text the metrics supplier
 * gives (for a Micrometer {@code PrometheusMeterRegistry}, its {@code scrape()}). Built on the
 * JDK's HTTP server, so an operator carries no web framework.
 *
 * <pre>{@code
 * ProbeServer probes = ProbeServer.start(8081, operator::health, registry::scrape);
 * }</pre>
 */
public final class ProbeServer implements AutoCloseable {

  /** The content type of {@code /metrics}: the Prometheus text format. */
  public static final String METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService executor;

  private ProbeServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Starts serving on {@code port} (0 picks a free one) on all interfaces.
   *
   * @throws IllegalArgumentException when the port is taken, naming it
   * @throws IOException when the server cannot be started for another reason
   */
  public static ProbeServer start(
      int port, Supplier<OperatorHealth> health, Supplier<String> metrics) throws IOException {
    Objects.requireNonNull(health, "health");
    Objects.requireNonNull(metrics, "metrics");
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(port), 0);
    } catch (java.net.BindException e) {
      throw new IllegalArgumentException(
          "HTTP port "
              + port
              + " for probes and metrics: "
              + e.getMessage()
              + "; choose a free port, or 0 for any",
          e);
    }
    server.createContext(
        "/healthz",
        exchange -> {
          OperatorHealth now = health.get();
          respond(exchange, now.live() ? 200 : 503, "text/plain", describe(now, now.live()));
        });
    server.createContext(
        "/readyz",
        exchange -> {
          OperatorHealth now = health.get();
          respond(exchange, now.ready() ? 200 : 503, "text/plain", describe(now, now.ready()));
        });
    server.createContext(
        "/metrics", exchange -> respond(exchange, 200, METRICS_CONTENT_TYPE, metrics.get()));
    ExecutorService executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "probe-server");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(executor);
    server.start();
    return new ProbeServer(server, executor);
  }

  /** The port actually bound. */
  public int port() {
    return server.getAddress().getPort();
  }

  /** Stops serving and releases the port. */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private static String describe(OperatorHealth health, boolean ok) {
    StringBuilder text =
        new StringBuilder(ok ? "ok" : "not ok")
            .append('\n')
            .append("state: ")
            .append(health.state())
            .append('\n')
            .append("caches synced: ")
            .append(health.cachesSynced())
            .append('\n');
    health.leader().ifPresent(leader -> text.append("leader: ").append(leader).append('\n'));
    health.problems().forEach(problem -> text.append("problem: ").append(problem).append('\n'));
    return text.toString();
  }

  private static void respond(HttpExchange exchange, int status, String contentType, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    if ("HEAD".equals(exchange.getRequestMethod())) {
      exchange.sendResponseHeaders(status, -1);
      exchange.close();
      return;
    }
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
