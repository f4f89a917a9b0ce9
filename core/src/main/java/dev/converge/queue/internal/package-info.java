/** The work queue behind each controller's workers; not part of the API. */
package dev.converge.queue.internal;
