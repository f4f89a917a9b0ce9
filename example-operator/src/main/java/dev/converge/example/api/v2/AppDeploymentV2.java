package dev.converge.example.api.v2;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentStatus;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Version v2 of AppDeployment: named ports instead of one port. v1 stays the storage version and
 * what the operator reads; the conversion webhook maps between them. Not served unless the webhook
 * is configured (the generated CRD under {@code target/webhooks/} serves it).
 */
@Group(AppDeployment.GROUP)
@Version(value = "v2", storage = false, served = false)
@Kind("AppDeployment")
@Plural("appdeployments")
@Singular("appdeployment")
@ShortNames("appdep")
public class AppDeploymentV2 extends CustomResource<AppDeploymentV2Spec, AppDeploymentStatus>
    implements Namespaced {}
