/** The event handlers the controller builder makes; not part of the API. */
package dev.converge.handler.internal;
