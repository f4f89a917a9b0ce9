/** How strategies are found; not for users. */
package dev.converge.strategy.internal;
