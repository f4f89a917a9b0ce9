/**
 * What users write: a {@link dev.converge.reconcile.Reconciler} that returns a {@link
 * dev.converge.reconcile.Result}, and the {@link dev.converge.reconcile.Context} it reads from and
 * writes through.
 */
package dev.converge.reconcile;
