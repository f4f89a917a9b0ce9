package dev.converge.webhooks.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * {@code converge.webhook.requests}: a timer per webhook ({@code validate}, {@code mutate}, {@code
 * convert}), kind and outcome ({@code allowed}, {@code denied}, {@code patched}, {@code converted},
 * {@code error}); {@code converge.webhook.denials}: a counter per kind and field.
 */
public final class WebhookMetrics {

  public static final String REQUESTS = "converge.webhook.requests";
  public static final String DENIALS = "converge.webhook.denials";

  private final MeterRegistry registry;

  public WebhookMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  public void record(String webhook, String kind, String outcome, Duration took) {
    Timer.builder(REQUESTS)
        .description("Webhook requests answered, by webhook, kind and outcome")
        .tag("webhook", webhook)
        .tag("kind", kind)
        .tag("outcome", outcome)
        .publishPercentileHistogram()
        .register(registry)
        .record(took);
  }

  public void denied(String kind, String field) {
    Counter.builder(DENIALS)
        .description("Admission requests denied, by kind and field")
        .tag("kind", kind)
        .tag("field", field.isEmpty() ? "none" : field)
        .register(registry)
        .increment();
  }
}
