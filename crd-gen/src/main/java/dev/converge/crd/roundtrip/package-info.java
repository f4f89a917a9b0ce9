/**
 * Proves on a real API server that a generated CRD and fabric8's serialisation agree: random
 * instances of a custom resource class, written by fabric8, are accepted and read back equal;
 * values that break a declared constraint are refused with the field named. Entry point: {@link
 * dev.converge.crd.roundtrip.SchemaRoundTrip}.
 */
package dev.converge.crd.roundtrip;
