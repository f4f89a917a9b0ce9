/**
 * The parts of an operator's {@code main} that every operator repeats: {@link
 * dev.converge.cli.OperatorOptions}, the common command-line options as a picocli mixin (picocli is
 * an optional dependency), and {@link dev.converge.cli.OperatorProcess}, start, run until stopped,
 * close.
 */
package dev.converge.cli;
