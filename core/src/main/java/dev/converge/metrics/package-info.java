/**
 * Micrometer metrics of the reconcile runtime: reconciles by result, durations, queue depth and
 * wait, retries, active workers.
 */
package dev.converge.metrics;
