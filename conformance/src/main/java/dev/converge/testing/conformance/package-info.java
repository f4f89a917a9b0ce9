/**
 * The strategy conformance kit: a JUnit 5 suite that checks any {@link
 * dev.converge.strategy.ResourceStrategy} against the real local cluster.
 *
 * <p>Use: extend {@link dev.converge.testing.conformance.StrategyConformanceKit} in a class named
 * {@code *IT}, return the strategy from {@code target()} (declaring known limits with {@link
 * dev.converge.testing.conformance.ConformanceTarget#withLimit}), and optionally other strategies from
 * {@code peers()} for the switch scenario. Each of the ten {@link
 * dev.converge.testing.conformance.Scenario}s runs on Deployment, Service (ClusterIP and NodePort),
 * ConfigMap, Secret, StatefulSet and a custom resource of a CRD created for the run in a unique group.
 * Write requests are counted with a fabric8 {@code Interceptor} on the strategy's client; "another
 * actor" is a second client writing JSON merge patches as field manager {@code
 * conformance-other-actor}.
 *
 * <p>Results go to {@code target/conformance/<strategy>.json} ({@link
 * dev.converge.testing.conformance.ConformanceReport}); {@link
 * dev.converge.testing.conformance.ConformanceTable} turns any number of those files into the README's
 * Markdown table.
 */
package dev.converge.testing.conformance;
