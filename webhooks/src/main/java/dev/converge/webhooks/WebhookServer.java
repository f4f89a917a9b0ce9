package dev.converge.webhooks;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.converge.webhooks.internal.AdmissionEndpoint;
import dev.converge.webhooks.internal.ConversionEndpoint;
import dev.converge.webhooks.internal.HandlerCalls;
import dev.converge.webhooks.internal.LenientSerialization;
import dev.converge.webhooks.internal.WebhookMetrics;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The HTTPS server the API server calls: one path per registered webhook ({@link
 * AdmissionWebhook#path()}, {@link ConversionWebhook#path()}), and {@code /healthz}. It is the
 * JDK's own {@code com.sun.net.httpserver.HttpsServer} (module {@code jdk.httpserver}, part of
 * every JDK since 6 and maintained with it), so the module adds no server to an operator's
 * dependencies.
 *
 * <pre>{@code
 * try (WebhookServer server = WebhookServer.builder(webhooks)
 *     .certificate(ServingCertificate.fromFiles(crt, key, Duration.ofSeconds(30)))
 *     .port(9443).start()) { ... }
 * }</pre>
 */
public final class WebhookServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WebhookServer.class);
  private static final int MAX_BODY = 3 * 1024 * 1024;
  private static final String NO_DELAY = "sun.net.httpserver.nodelay";

  private final HttpsServer server;
  private final ExecutorService executor;
  private final HandlerCalls calls;
  private final ServingCertificate certificate;
  private final Webhooks webhooks;

  private WebhookServer(
      HttpsServer server,
      ExecutorService executor,
      HandlerCalls calls,
      ServingCertificate certificate,
      Webhooks webhooks) {
    this.server = server;
    this.executor = executor;
    this.calls = calls;
    this.certificate = certificate;
    this.webhooks = webhooks;
  }

  /**
   * {@return the settings of a server for {@code webhooks}}
   *
   * @param webhooks what the server answers
   */
  public static Builder builder(Webhooks webhooks) {
    return new Builder(webhooks);
  }

  /** {@return the port the server listens on} (the chosen one when started with port 0) */
  public int port() {
    return server.getAddress().getPort();
  }

  /** {@return the certificate it serves}, with its CA bundle for the webhook configurations */
  public ServingCertificate certificate() {
    return certificate;
  }

  /** {@return the webhooks it serves} */
  public Webhooks webhooks() {
    return webhooks;
  }

  /** Stops accepting requests, lets those under way finish for up to a second, and closes. */
  @Override
  public void close() {
    server.stop(1);
    executor.shutdownNow();
    calls.close();
    LOG.info("Webhook server on port {} stopped", port());
  }

  /** Settings of a server; {@link #start()} binds the port. */
  public static final class Builder {
    private final Webhooks webhooks;
    private String bindAddress = "0.0.0.0";
    private int port = 9443;
    private ServingCertificate certificate;
    private MeterRegistry meterRegistry;
    private int threads = 8;

    private Builder(Webhooks webhooks) {
      this.webhooks = Objects.requireNonNull(webhooks, "webhooks");
    }

    /**
     * Sets the address to listen on; {@code 0.0.0.0} (every interface) by default.
     *
     * @param address a host name or IP address of this machine
     * @return this builder
     */
    public Builder bindAddress(String address) {
      this.bindAddress = address;
      return this;
    }

    /**
     * Sets the port; 9443 by default, 0 for any free port.
     *
     * @param port the TCP port
     * @return this builder
     */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /**
     * Sets the serving certificate; required.
     *
     * @param certificate what the server presents to the API server
     * @return this builder
     */
    public Builder certificate(ServingCertificate certificate) {
      this.certificate = certificate;
      return this;
    }

    /**
     * Sets where {@code converge.webhook.*} meters go; a private registry when not set.
     *
     * @param registry the operator's meter registry
     * @return this builder
     */
    public Builder meterRegistry(MeterRegistry registry) {
      this.meterRegistry = registry;
      return this;
    }

    /**
     * Sets how many threads answer requests; 8 by default.
     *
     * @param threads at least 1
     * @return this builder
     */
    public Builder threads(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("threads must be at least 1, not " + threads);
      }
      this.threads = threads;
      return this;
    }

    /**
     * Binds the port and starts serving.
     *
     * @return the running server; the caller closes it
     * @throws UncheckedIOException naming the address when the port cannot be bound
     */
    public WebhookServer start() {
      if (certificate == null) {
        throw new IllegalStateException(
            "the webhook server needs a certificate: "
                + "ServingCertificate.generate(...) for local runs, ServingCertificate.fromFiles(...)"
                + " for a mounted Secret");
      }
      KubernetesSerialization serialization = LenientSerialization.create();
      WebhookMetrics metrics =
          new WebhookMetrics(meterRegistry == null ? new SimpleMeterRegistry() : meterRegistry);
      HandlerCalls calls = new HandlerCalls();
      ObjectMapper json = JsonMapper.builder().build();
      Map<String, Function<JsonNode, JsonNode>> routes = new HashMap<>();
      for (AdmissionWebhook hook : webhooks.admission()) {
        AdmissionEndpoint endpoint = new AdmissionEndpoint(hook, serialization, calls, metrics);
        routes.put(hook.path(), endpoint::answer);
      }
      for (ConversionWebhook hook : webhooks.conversion()) {
        if (!routes.containsKey(hook.path())) {
          List<ConversionWebhook> all = webhooks.conversionAt(hook.path());
          routes.put(
              hook.path(), new ConversionEndpoint(all, serialization, calls, metrics)::answer);
        }
      }
      // The JDK server writes the headers and the body of a response in two packets; with Nagle's
      // algorithm on, the second waits for the client's delayed ACK (about 40 ms on Linux) on
      // every keep-alive request. The property is read once, when the server classes load.
      if (System.getProperty(NO_DELAY) == null) {
        System.setProperty(NO_DELAY, "true");
      }
      InetSocketAddress address = new InetSocketAddress(bindAddress, port);
      HttpsServer server;
      try {
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(new KeyManager[] {certificate.keyManager()}, null, null);
        server = HttpsServer.create(address, 128);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
      } catch (IOException e) {
        calls.close();
        throw new UncheckedIOException("cannot listen on " + address + " for webhooks: " + e, e);
      } catch (GeneralSecurityException e) {
        calls.close();
        throw new IllegalStateException("cannot set up TLS for the webhook server: " + e, e);
      }
      AtomicInteger count = new AtomicInteger();
      ExecutorService executor =
          Executors.newFixedThreadPool(
              threads,
              r -> {
                Thread t = new Thread(r, "converge-webhook-http-" + count.incrementAndGet());
                t.setDaemon(true);
                return t;
              });
      server.setExecutor(executor);
      server.createContext("/", exchange -> handle(exchange, routes, json));
      server.start();
      WebhookServer started = new WebhookServer(server, executor, calls, certificate, webhooks);
      LOG.info(
          "Webhook server listening on {}:{} with {}",
          bindAddress,
          started.port(),
          routes.keySet().stream().sorted().toList());
      return started;
    }

    private static void handle(
        HttpExchange exchange, Map<String, Function<JsonNode, JsonNode>> routes, ObjectMapper json)
        throws IOException {
      try (exchange) {
        String path = exchange.getRequestURI().getPath();
        if (path.equals("/healthz")) {
          respond(exchange, 200, "text/plain", "ok".getBytes(StandardCharsets.UTF_8));
          return;
        }
        Function<JsonNode, JsonNode> route = routes.get(path);
        if (route == null) {
          respond(
              exchange,
              404,
              "text/plain",
              ("no webhook at " + path + "; served: " + routes.keySet().stream().sorted().toList())
                  .getBytes(StandardCharsets.UTF_8));
          return;
        }
        if (!"POST".equals(exchange.getRequestMethod())) {
          respond(exchange, 405, "text/plain", "POST a review".getBytes(StandardCharsets.UTF_8));
          return;
        }
        JsonNode review;
        try (InputStream body = exchange.getRequestBody()) {
          byte[] bytes = body.readNBytes(MAX_BODY + 1);
          if (bytes.length > MAX_BODY) {
            respond(
                exchange,
                413,
                "text/plain",
                "review larger than 3 MiB".getBytes(StandardCharsets.UTF_8));
            return;
          }
          review = json.readTree(bytes);
        } catch (RuntimeException e) {
          LOG.warn("{}: a request that is not JSON: {}", path, e.getMessage());
          respond(
              exchange,
              400,
              "text/plain",
              ("not a JSON review: " + e.getMessage()).getBytes(StandardCharsets.UTF_8));
          return;
        }
        JsonNode answer = route.apply(review);
        respond(exchange, 200, "application/json", json.writeValueAsBytes(answer));
      } catch (IOException e) {
        LOG.debug("Webhook connection closed while answering: {}", e.toString());
      } catch (RuntimeException e) {
        LOG.error("Webhook server failed on {}", exchange.getRequestURI(), e);
      }
    }

    private static void respond(HttpExchange exchange, int status, String type, byte[] body)
        throws IOException {
      exchange.getResponseHeaders().set("Content-Type", type);
      exchange.sendResponseHeaders(status, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }
}
