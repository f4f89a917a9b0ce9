package dev.converge.crd.sample;

import dev.converge.crd.annotation.Maximum;
import dev.converge.crd.annotation.Minimum;
import dev.converge.crd.annotation.Required;

/** A list-map entry keyed by name. */
public record Port(
    @Required String name, @Minimum(1) @Maximum(65535) Integer port, Protocol protocol) {}
