/**
 * Building blocks for strategies that compare objects as JSON trees ({@code Map}, {@code List},
 * scalars): conversion, normalisation of desired objects, and the "desired is already contained in
 * live" test that keeps server defaults from causing writes. Public so that user strategies can use
 * the same comparison as the bundled ones.
 */
package dev.converge.strategy.tree;
