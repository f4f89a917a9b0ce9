/**
 * Status: the object's report of what the controller observed.
 *
 * <p>{@link dev.converge.status.StatusWriter} writes it through the status subresource, only when
 * it changed, as a merge patch of the changed fields. {@link dev.converge.status.Conditions} keeps
 * a condition list with the API conventions' timestamps: {@code lastTransitionTime} moves only when
 * a condition's status flips, and {@code observedGeneration} tells readers which spec the condition
 * describes.
 */
package dev.converge.status;
