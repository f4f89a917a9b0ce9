/**
 * Readiness of the built-in workloads (Deployment, StatefulSet, DaemonSet, Job) and the basics of
 * Service and PersistentVolumeClaim, read from their status the way {@code kubectl rollout status}
 * and kstatus read it: {@link dev.converge.workload.WorkloadReadiness}; and {@link
 * dev.converge.workload.ImageReference}, the check of a container image reference that a CRD schema
 * cannot make.
 */
package dev.converge.workload;
