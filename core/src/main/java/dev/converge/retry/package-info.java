/**
 * Retrying writes that lost an optimistic-concurrency race (HTTP 409 Conflict).
 *
 * <p>{@link dev.converge.retry.ConflictRetry} re-reads, re-applies the change and writes again, a
 * few times with a short jittered backoff. It is deliberately bounded: a conflict that persists is
 * handed back to the work queue by throwing, where backoff does not hold a worker thread.
 */
package dev.converge.retry;
