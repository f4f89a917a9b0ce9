package dev.converge.webhooks.sample;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/** Version v2 of the sample resource: named ports. Served only once conversion is on. */
@Group(Gadget.GROUP)
@Version(value = "v2", storage = false, served = false)
@Kind("Gadget")
@Plural("gadgets")
public class GadgetV2 extends CustomResource<GadgetV2Spec, Void> implements Namespaced {}
