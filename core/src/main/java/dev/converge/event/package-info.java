/**
 * Kubernetes Events about the objects a controller manages: what {@code kubectl describe} shows.
 *
 * <p>{@link dev.converge.event.EventRecorder} writes core/v1 Events, folds repeats into one Event
 * with a count, and never lets a failed write fail a reconcile.
 */
package dev.converge.event;
