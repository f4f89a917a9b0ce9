package dev.converge.example.desired;

import dev.converge.example.api.AppDeployment;
import dev.converge.owner.DependentMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;

/**
 * The ClusterIP Service in front of an AppDeployment's pods: same name and namespace, port {@code
 * spec.port} named {@value DesiredDeployment#PORT_NAME} to the same container port.
 *
 * <p>{@code clusterIP} is deliberately absent: the API server allocates it, it is immutable, and
 * every strategy must keep the allocated one (the update strategy through its Service preserver).
 */
public final class DesiredService {

  private DesiredService() {}

  public static Service of(AppDeployment app) {
    int port = app.getSpec().portOrDefault();
    return new ServiceBuilder()
        .withMetadata(DependentMetadata.of(app, AppLabels.all(app)))
        .withNewSpec()
        .withType("ClusterIP")
        .withSelector(AppLabels.selector(app))
        .addNewPort()
        .withName(DesiredDeployment.PORT_NAME)
        .withProtocol("TCP")
        .withPort(port)
        .withTargetPort(new IntOrString(port))
        .endPort()
        .endSpec()
        .build();
  }
}
