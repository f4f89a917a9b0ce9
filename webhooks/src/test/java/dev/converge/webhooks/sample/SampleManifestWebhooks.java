package dev.converge.webhooks.sample;

import dev.converge.webhooks.Verdict;
import dev.converge.webhooks.Webhooks;
import java.util.function.Supplier;

/**
 * Registrations for the build step's tests: a validator and a defaulter for {@link Gadget}. In a
 * package of its own, outside module {@code dev.converge.webhooks}, so that the build step run from
 * the module path can load it from the class path.
 */
public final class SampleManifestWebhooks implements Supplier<Webhooks> {

  @Override
  public Webhooks get() {
    return Webhooks.builder()
        .validate(Gadget.class, admission -> Verdict.allow())
        .setDefaults(Gadget.class, (gadget, admission) -> {})
        .build();
  }
}
