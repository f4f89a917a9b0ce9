package dev.converge.testing.operator;

import dev.converge.operator.Operator;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Builds the operator under test from the client {@link RunningOperator} made for it (its own user
 * agent, optionally impersonating a user) and a registry whose meters the test may read. Built the
 * way the operator's {@code main} builds it, so the test runs the same wiring:
 *
 * <pre>{@code
 * (client, meters) -> Operator.builder(client).name("widget-operator").meterRegistry(meters)
 *     .controller(WidgetController.definition()).build()
 * (client, meters) -> Guice.createInjector(new WidgetModule(client, meters)).getInstance(Operator.class)
 * }</pre>
 */
@FunctionalInterface
public interface OperatorFactory {

  /** The operator, not yet started. */
  Operator create(KubernetesClient client, MeterRegistry meters) throws Exception;
}
