package dev.converge.example.api;

import dev.converge.crd.annotation.PrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * An application the operator runs: a Deployment of {@code spec.image} with {@code spec.replicas}
 * pods, its environment taken from the ConfigMap {@code spec.configMapName}, and a ClusterIP
 * Service in front of {@code spec.port}. A change of the ConfigMap's content rolls the pods.
 */
@Group(AppDeployment.GROUP)
@Version(AppDeployment.VERSION)
@Kind("AppDeployment")
@Plural("appdeployments")
@Singular("appdeployment")
@ShortNames("appdep")
@PrinterColumn(name = "Image", jsonPath = ".spec.image")
@PrinterColumn(name = "Replicas", jsonPath = ".spec.replicas", type = "integer")
@PrinterColumn(name = "Ready", jsonPath = ".status.readyReplicas", type = "integer")
@PrinterColumn(name = "Phase", jsonPath = ".status.phase")
@PrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = "date")
public class AppDeployment extends CustomResource<AppDeploymentSpec, AppDeploymentStatus>
    implements Namespaced {

  /** The API group, under a domain the project owns. */
  public static final String GROUP = "apps.converge.dev";

  public static final String VERSION = "v1";

  /** The CRD's name, {@code appdeployments.apps.converge.dev}. */
  public static final String CRD_NAME = "appdeployments." + GROUP;

  /** A new AppDeployment named {@code namespace/name} with {@code spec}. */
  public static AppDeployment of(String namespace, String name, AppDeploymentSpec spec) {
    AppDeployment app = new AppDeployment();
    app.getMetadata().setNamespace(namespace);
    app.getMetadata().setName(name);
    app.setSpec(spec);
    return app;
  }
}
