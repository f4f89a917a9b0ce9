/**
 * The strategy conformance kit: JUnit 5 suites that check any {@link
 * dev.converge.strategy.ResourceStrategy} against the real local cluster, judged independently.
 *
 * <p>Use: extend {@link dev.converge.testing.conformance.StrategyConformanceKit} in a class named
 * {@code *IT}, return the strategy from {@code target()} (declaring limits of its write method,
 * each for one named expectation, with {@link
 * dev.converge.testing.conformance.ConformanceTarget#withLimit}), and optionally other strategies
 * from {@code peers()} for the switch scenario. The ten {@link
 * dev.converge.testing.conformance.Scenario}s run on Deployment, Service (ClusterIP and NodePort),
 * ConfigMap, Secret, StatefulSet and a custom resource; the {@link
 * dev.converge.testing.conformance.ConformanceCase}s on the realistic objects they concern.
 *
 * <p>The {@link dev.converge.testing.conformance.Judge} reads live objects with a plain client and
 * compares them with {@link dev.converge.testing.conformance.Expectation}s written by hand (by
 * {@link dev.converge.testing.conformance.FieldPath}) and with what a server-side dry-run create of
 * desired holds. Write requests are counted with a fabric8 {@code Interceptor} on the strategy's
 * client; "another actor" is a second client with a field manager of its own.
 *
 * <p>Results go to {@code target/conformance/<strategy>.json} ({@link
 * dev.converge.testing.conformance.ConformanceReport}); {@link
 * dev.converge.testing.conformance.ConformanceTable} turns any number of those files into the
 * README's Markdown tables. The differential fuzzer lives in {@link
 * dev.converge.testing.conformance.fuzz}.
 */
package dev.converge.testing.conformance;
