/**
 * How an event of a watched kind becomes the keys of primaries to reconcile: the object itself, its
 * controller owner, or what a mapping function returns.
 */
package dev.converge.handler;
