/**
 * Describing a controller in the seeds' For / Owns / Watches style with {@link dev.converge.builder.ControllerBuilder}.
 */
package dev.converge.builder;
