package dev.converge.benchmarks.internal;

import java.util.List;
import java.util.Map;

/**
 * The figures of one run, operator or floor. A figure that does not apply to the mode (idle writes
 * of the floor, the floor's CPU) or could not be measured (heap of a process that is not a JVM) is
 * {@code null}, shown as "–".
 *
 * @param mode {@code operator}, {@code go} (the Go controller-runtime peer) or {@code floor}
 * @param runningOverTime seconds from the first create at which each object was done, ascending
 * @param clientRequests the measured client's requests while converging, by {@code verb resource}
 * @param restartToReadySeconds the median restart's (by its time from caches synced to first
 *     reconcile), as are the other {@code restart} figures
 * @param restartsSyncedToFirstReconcile each restart's seconds from caches synced to first
 *     reconcile, in the order they ran; empty for the floor
 * @param reconcilesPerObject the operator's reconciles while converging, divided by the objects
 * @param cpuSecondsByThread the operator's CPU seconds while converging by group of threads (see
 *     {@link OperatorProcess#cpuSecondsByThread()}); empty for the floor
 * @param controlPlaneCpuSeconds CPU seconds of each control plane process while converging ({@link
 *     ControlPlaneCpu}); empty when not measured
 * @param createLag from the harness sending each AppDeployment's create to its Deployment seen;
 *     null for the floor, which creates the Deployments itself, and for runs before it was measured
 * @param runningLag from the harness sending each create to the object seen Running (for the floor:
 *     its Deployment rolled out); null for runs before it was measured
 */
public record RunFigures(
    String mode,
    int objects,
    int replicas,
    int namespaces,
    double clusterStartSeconds,
    double convergeSeconds,
    double objectsPerSecond,
    List<Double> runningOverTime,
    long clientWrites,
    long clientReads,
    long clientWatches,
    long otherWrites,
    long otherReads,
    double writesPerObject,
    double readsPerObject,
    Map<String, Long> clientRequests,
    Integer idleSeconds,
    Long idleWrites,
    int fanoutConfigMaps,
    Double fanoutSeconds,
    Double cpuSecondsConverge,
    Double cpuMsPerObject,
    Double cpuSecondsTotal,
    Double peakRssMiB,
    Double heapAfterGcMiB,
    Double heapKiBPerObject,
    Double startToReadySeconds,
    Double restartToReadySeconds,
    Double restartToFirstReconcileSeconds,
    Double restartToAllReconciledSeconds,
    Long restartWrites,
    Long restartReads,
    List<Double> restartsSyncedToFirstReconcile,
    Double reconcilesPerObject,
    Map<String, Double> cpuSecondsByThread,
    Map<String, Double> controlPlaneCpuSeconds,
    Lags createLag,
    Lags runningLag) {
  public RunFigures {
    restartsSyncedToFirstReconcile =
        restartsSyncedToFirstReconcile == null
            ? List.of()
            : List.copyOf(restartsSyncedToFirstReconcile);
    cpuSecondsByThread = cpuSecondsByThread == null ? Map.of() : Map.copyOf(cpuSecondsByThread);
    controlPlaneCpuSeconds =
        controlPlaneCpuSeconds == null ? Map.of() : Map.copyOf(controlPlaneCpuSeconds);
  }
}
