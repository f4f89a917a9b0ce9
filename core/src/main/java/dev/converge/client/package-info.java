/**
 * Help for building the fabric8 client an operator runs with: {@link dev.converge.client.Clients}
 * builds one whose JSON costs less CPU; {@link dev.converge.client.internal.ClientKeyAlgorithm}
 * reads client keys that fabric8 would misread.
 */
package dev.converge.client;
