package ${package}.api;

import dev.converge.crd.annotation.PrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The custom resource of this operator. Its CRD is generated from this class and its spec and
 * status records at build time (target/deploy/${plural}.${group}.yaml).
 */
@Group(${kind}.GROUP)
@Version("v1")
@Kind("${kind}")
@Plural("${plural}")
@Singular("${kindLower}")
@PrinterColumn(name = "Image", jsonPath = ".spec.image")
@PrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
@PrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = "date")
public class ${kind} extends CustomResource<${kind}Spec, ${kind}Status> implements Namespaced {

  public static final String GROUP = "${group}";

  public static ${kind} of(String namespace, String name, ${kind}Spec spec) {
    ${kind} ${kindLower} = new ${kind}();
    ${kindLower}.getMetadata().setNamespace(namespace);
    ${kindLower}.getMetadata().setName(name);
    ${kindLower}.setSpec(spec);
    return ${kindLower};
  }
}
