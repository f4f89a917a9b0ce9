package dev.converge.testing;

/**
 * The namespace created for one test by {@link LocalClusterExtension}; deleted after the test.
 *
 * @param name the namespace's name
 */
public record TestNamespace(String name) {}
