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

  /**
   * Builds the operator, not yet started: {@link RunningOperator} starts it and waits for its
   * caches.
   *
   * @param client the operator's own client; build the operator on it so that its requests carry
   *     the test's user agent and identity and its writes are recorded
   * @param meters the registry to give the operator, read by {@link RunningOperator#reconciles}
   * @return the operator, built and not started; never null
   * @throws Exception when the operator cannot be built; the client is closed and the error reaches
   *     the test
   */
  Operator create(KubernetesClient client, MeterRegistry meters) throws Exception;
}
