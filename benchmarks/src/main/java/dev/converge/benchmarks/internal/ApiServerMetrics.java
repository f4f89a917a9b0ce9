package dev.converge.benchmarks.internal;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads kube-apiserver's {@code /metrics} (Prometheus text) into a {@link MetricsSnapshot}. */
public final class ApiServerMetrics {

  private static final String REQUESTS = "apiserver_request_total{";
  private static final String DISPATCHED = "apiserver_flowcontrol_dispatched_requests_total{";
  private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  private final KubernetesClient admin;
  private final ClientFlowSchemas schemas;

  public ApiServerMetrics(KubernetesClient admin, ClientFlowSchemas schemas) {
    this.admin = admin;
    this.schemas = schemas;
  }

  /** The counters now. */
  public MetricsSnapshot snapshot() {
    String text = admin.raw("/metrics");
    if (text == null) {
      throw new IllegalStateException(
          "kube-apiserver answered 404 to GET /metrics; the benchmark"
              + " needs the metrics endpoint (the administrator may read it)");
    }
    return parse(text, schemas);
  }

  static MetricsSnapshot parse(String text, ClientFlowSchemas schemas) {
    Map<RequestKey, Long> all = new HashMap<>();
    Map<RequestKey, Long> client = new HashMap<>();
    for (String line : text.lines().toList()) {
      if (line.startsWith(REQUESTS)) {
        Map<String, String> labels = labels(line);
        String resource = labels.getOrDefault("resource", "");
        if (resource.isEmpty()) {
          continue; // non-resource URLs: discovery, /metrics, /readyz
        }
        RequestKey key =
            RequestKey.fromMetric(
                labels.getOrDefault("verb", ""), resource, labels.get("subresource"));
        all.merge(key, value(line), Long::sum);
      } else if (line.startsWith(DISPATCHED)) {
        Map<String, String> labels = labels(line);
        schemas
            .keyOf(labels.getOrDefault("flow_schema", ""))
            .ifPresent(key -> client.merge(key, value(line), Long::sum));
      }
    }
    return new MetricsSnapshot(all, client);
  }

  private static Map<String, String> labels(String line) {
    Map<String, String> labels = new HashMap<>();
    Matcher m = LABEL.matcher(line.substring(0, line.lastIndexOf('}') + 1));
    while (m.find()) {
      labels.put(m.group(1), m.group(2));
    }
    return labels;
  }

  private static long value(String line) {
    String number = line.substring(line.lastIndexOf('}') + 1).trim().split("\\s+", 2)[0];
    return Math.round(Double.parseDouble(number));
  }
}
