/** The build step, run by exec-maven-plugin after compilation; see crd-gen/README.md. */
package dev.converge.crd.build;
