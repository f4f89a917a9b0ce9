package dev.converge.operator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Something an {@link Operator} runs beside its controllers and stops with them: a webhook server,
 * an HTTP endpoint of the operator's own, a background task. Added with {@link
 * OperatorBuilder#component}; it runs on every replica, leading or not, because a webhook must
 * answer the API server whichever replica it reaches.
 */
@FunctionalInterface
public interface Component {

  /**
   * Starts the component and returns what stops it. Called once by {@link Operator#start()}, after
   * the probes are served and before the caches start.
   *
   * @param client the operator's client (reads through it are not fenced by leader election)
   * @param metrics the operator's meter registry, served on {@code /metrics}
   * @return what stops the component; the operator closes it once, in reverse order of start
   * @throws Exception when it cannot start; the operator then does not start either
   */
  AutoCloseable start(KubernetesClient client, MeterRegistry metrics) throws Exception;
}
