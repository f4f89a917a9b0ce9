/**
 * Implementation of the generator: the victools module and the structural-schema pass. Not an API.
 */
package dev.converge.crd.internal;
