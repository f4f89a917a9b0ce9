/**
 * A real local Kubernetes control plane for tests: {@link dev.converge.testing.LocalCluster} starts
 * etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok from local binaries (or
 * uses the kubeconfig's cluster), and {@link dev.converge.testing.LocalClusterExtension} gives each
 * JUnit 5 test a namespace of its own on one cluster shared by the run, so that tests see what the
 * API server really does rather than what a mock assumes.
 */
package dev.converge.testing;
