/**
 * The differential fuzzer: seeded sequences of realistic objects, changes by another client and
 * changed desired objects, each apply judged against a server-side dry-run create of the same
 * desired object. Extend {@link dev.converge.testing.conformance.fuzz.StrategyFuzzKit} in a class
 * named {@code *IT}; size it with the system properties of {@link
 * dev.converge.testing.conformance.fuzz.FuzzSettings}.
 */
package dev.converge.testing.conformance.fuzz;
