package dev.converge.crd.sample;

import dev.converge.crd.annotation.Required;
import java.time.Duration;
import java.time.Instant;

/** A record in a list. */
public record Window(@Required Instant from, Duration length) {}
