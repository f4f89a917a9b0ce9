package dev.converge.crd.compare;

import com.fasterxml.jackson.annotation.JsonClassDescription;

/** A nested type, as a record. */
@JsonClassDescription("A part of the gizmo.")
public record GizmoPart(
    @io.fabric8.generator.annotation.Required @dev.converge.crd.annotation.Required String id,
    int count) {}
