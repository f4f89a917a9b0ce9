package dev.converge.webhooks.sample;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/** Version v1 (stored) of the sample resource: one port. */
@Group(Gadget.GROUP)
@Version("v1")
@Kind("Gadget")
@Plural("gadgets")
public class Gadget extends CustomResource<GadgetSpec, Void> implements Namespaced {
  public static final String GROUP = "samples.webhooks.converge.dev";

  public static Gadget of(String name, GadgetSpec spec) {
    Gadget gadget = new Gadget();
    gadget.getMetadata().setName(name);
    gadget.setSpec(spec);
    return gadget;
  }
}
