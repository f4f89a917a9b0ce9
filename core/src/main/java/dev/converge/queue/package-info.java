/**
 * The work queue between events and workers: de-duplication, one worker per key, dirty/processing
 * rounds, delayed adds and per-key exponential backoff, on a {@link
 * dev.converge.queue.internal.Ticker} that tests can drive.
 */
package dev.converge.queue;
