/**
 * Unit-testing reconcilers without a cluster: {@link dev.converge.unittest.TestContext} is a {@link
 * dev.converge.reconcile.Context} whose caches, applies and status writes live in memory. It ships
 * in core so that an operator's unit tests need no other dependency; behaviour that only the API
 * server has (defaulting, server-side apply, garbage collection) belongs in integration tests.
 */
package dev.converge.unittest;
