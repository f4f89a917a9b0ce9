/**
 * Events and informer caches as users see them: {@link dev.converge.source.ResourceEvent}, {@link
 * dev.converge.source.ResourceCache} with indexes, and {@link dev.converge.source.Caches}.
 */
package dev.converge.source;
