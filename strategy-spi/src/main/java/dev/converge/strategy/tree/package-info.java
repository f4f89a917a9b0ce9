/**
 * Building blocks for strategies that work on JSON trees ({@code Map}, {@code List}, scalars):
 * conversion ({@link dev.converge.schema.ResourceTree}), normalisation of desired objects ({@link
 * dev.converge.strategy.tree.DesiredState}), the record of applied fields ({@link
 * dev.converge.strategy.tree.AppliedFieldsRecord}), the server's ownership records ({@link
 * dev.converge.strategy.tree.ManagedFields}) and the merged object a record-keeping strategy writes
 * ({@link dev.converge.strategy.tree.MergedTarget}). Equality, merging and ownership themselves are
 * decided by the kind's schema, in {@link dev.converge.schema}. Public so that user strategies can
 * use the same pieces as the bundled ones.
 */
package dev.converge.strategy.tree;
