/**
 * Random values, hostile values and the server's stored form behind the round-trip check; not API.
 */
package dev.converge.crd.roundtrip.internal;
