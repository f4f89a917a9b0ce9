package dev.converge.operator;

import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Builds an operator, not started, on a given client: how build-time tools see an operator as it is
 * assembled for production. {@code dev.converge.rbac.build.GenerateRbac} calls it with a client
 * that is never connected (building an operator sends no request) and writes the RBAC manifests
 * {@link Operator#permissions()} describes. Implementations need a public no-argument constructor.
 */
@FunctionalInterface
public interface OperatorFactory {

  /**
   * The operator as the program builds it, on {@code client}. It must not start the operator nor
   * send requests: the client may never be connected.
   *
   * @param client the client to build the operator on
   * @return the operator, not started
   */
  Operator create(KubernetesClient client);
}
