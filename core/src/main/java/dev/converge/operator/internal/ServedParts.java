package dev.converge.operator.internal;

import dev.converge.operator.Component;
import dev.converge.operator.OperatorHealth;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an operator serves beside its controllers: the probes and metrics on its HTTP port and its
 * components (a webhook server, ...), started before the caches and closed in reverse order.
 */
public final class ServedParts implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ServedParts.class);

  private final String operatorName;
  private final List<AutoCloseable> started = new ArrayList<>();
  private ProbeServer probes;

  private ServedParts(String operatorName) {
    this.operatorName = operatorName;
  }

  /**
   * Serves the probes on {@code httpPort} (none when negative), then starts each component in
   * order. On a failure, closes what had started and throws.
   *
   * @throws Exception what the probe server or a component threw
   */
  public static ServedParts start(
      String operatorName,
      int httpPort,
      Supplier<OperatorHealth> health,
      MeterRegistry registry,
      List<Map.Entry<String, Component>> components,
      KubernetesClient client)
      throws Exception {
    ServedParts parts = new ServedParts(operatorName);
    try {
      if (httpPort >= 0) {
        parts.probes =
            ProbeServer.start(
                httpPort,
                health,
                () ->
                    registry instanceof PrometheusMeterRegistry prometheus
                        ? prometheus.scrape()
                        : "");
        log.info("operator {}: probes and metrics on :{}", operatorName, parts.probes.port());
      }
      for (Map.Entry<String, Component> component : components) {
        parts.started.add(component.getValue().start(client, registry));
        log.info("operator {}: started {}", operatorName, component.getKey());
      }
      return parts;
    } catch (Exception e) {
      parts.close();
      throw e;
    }
  }

  /** The port of the probes, or -1 without them. */
  public int port() {
    ProbeServer server = probes;
    return server == null ? -1 : server.port();
  }

  /** Closes the components in reverse order of starting, then the probes. */
  @Override
  public void close() {
    for (int i = started.size() - 1; i >= 0; i--) {
      try {
        started.get(i).close();
      } catch (Exception e) {
        log.warn("operator {}: closing a component failed: {}", operatorName, e.toString());
      }
    }
    started.clear();
    ProbeServer server = probes;
    if (server != null) {
      server.close();
    }
  }
}
