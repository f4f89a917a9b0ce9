/**
 * CustomResourceDefinitions from Java: {@link dev.converge.crd.CrdGenerator} turns fabric8 {@code
 * CustomResource} classes into {@code apiextensions.k8s.io/v1} CRDs with structural schemas, {@link
 * dev.converge.crd.CrdInstaller} applies them and waits until they are served, and {@link
 * dev.converge.crd.BundledCrds} reads the ones the build step packed into jars.
 */
package dev.converge.crd;
