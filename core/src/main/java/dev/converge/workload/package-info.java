/**
 * Readiness of the built-in workloads (Deployment, StatefulSet, DaemonSet, Job) and the basics of
 * Service and PersistentVolumeClaim, read from their status the way {@code kubectl rollout status}
 * and kstatus read it: {@link dev.converge.workload.WorkloadReadiness}.
 */
package dev.converge.workload;
