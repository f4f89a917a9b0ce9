/**
 * Guice wiring: {@link dev.converge.inject.ConvergeModule} binds an operator that runs every
 * controller contributed through a multibinder.
 */
package dev.converge.inject;
