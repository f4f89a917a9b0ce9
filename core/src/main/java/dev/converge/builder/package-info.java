/**
 * Describing a controller in controller-runtime's For / Owns / Watches style with {@link
 * dev.converge.builder.ControllerBuilder}.
 */
package dev.converge.builder;
