package dev.converge.example.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorHealth;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * The operator's HTTP endpoints on one port: {@code /healthz} (liveness), {@code /readyz}
 * (readiness) and {@code /metrics} (Prometheus text format). Built on the JDK's HTTP server, so the
 * operator carries no web framework.
 */
public final class ProbeServer implements AutoCloseable {

  private final HttpServer server;

  private ProbeServer(HttpServer server) {
    this.server = server;
  }

  /** Starts serving on {@code port} (0 picks a free one) on all interfaces. */
  public static ProbeServer start(int port, Operator operator, PrometheusMeterRegistry registry)
      throws IOException {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(port), 0);
    } catch (java.net.BindException e) {
      throw new IllegalArgumentException("--http-port " + port + ": " + e.getMessage()
          + "; choose a free port, or 0 for any", e);
    }
    server.createContext("/healthz", exchange -> {
      OperatorHealth health = operator.health();
      respond(exchange, health.live() ? 200 : 503, "text/plain", describe(health, health.live()));
    });
    server.createContext("/readyz", exchange -> {
      OperatorHealth health = operator.health();
      respond(exchange, health.ready() ? 200 : 503, "text/plain", describe(health, health.ready()));
    });
    server.createContext("/metrics", exchange ->
        respond(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
    server.setExecutor(Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "probe-server");
      t.setDaemon(true);
      return t;
    }));
    server.start();
    return new ProbeServer(server);
  }

  /** The port actually bound. */
  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private static String describe(OperatorHealth health, boolean ok) {
    StringBuilder text = new StringBuilder(ok ? "ok" : "not ok").append('\n')
        .append("state: ").append(health.state()).append('\n')
        .append("caches synced: ").append(health.cachesSynced()).append('\n');
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
