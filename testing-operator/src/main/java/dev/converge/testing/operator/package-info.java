/**
 * Running an operator inside an integration test on the local cluster: {@link
 * dev.converge.testing.operator.RunningOperator} starts it on a client of its own, waits for its
 * caches, records its writes and stops it after deleting what its finalizers hold; {@link
 * dev.converge.testing.operator.TestCrds} installs custom resource definitions once per test JVM.
 */
package dev.converge.testing.operator;
