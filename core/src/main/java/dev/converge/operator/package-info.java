/**
 * Running controllers: shared informers, workers, leader election on a Lease, health and graceful
 * shutdown, with {@link dev.converge.operator.Operator}.
 */
package dev.converge.operator;
