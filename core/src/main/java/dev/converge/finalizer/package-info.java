/**
 * Finalizers: cleanup of resources the garbage collector cannot see.
 *
 * <p>Owner references clean up objects inside the cluster. Anything outside it (a cloud database, a
 * DNS record) needs a finalizer: the API server keeps a deleted object, with its {@code
 * deletionTimestamp} set, until every finalizer is removed. {@link
 * dev.converge.finalizer.Finalization} runs that protocol around a {@link
 * dev.converge.finalizer.FinalizerHook}; {@link dev.converge.finalizer.Finalizers} writes the
 * finalizer list without disturbing the finalizers of other controllers.
 */
package dev.converge.finalizer;
