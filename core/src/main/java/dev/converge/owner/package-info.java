/**
 * Owner references: who owns a dependent object, and which owner is its controller.
 *
 * <p>A controller reference does two jobs. The API server's garbage collector deletes the dependent
 * when its owner goes (cascading deletion of everything a primary created), and a controller can
 * route events of the dependent back to the primary that owns it. {@link
 * dev.converge.owner.OwnerReferences} applies the rules the garbage collector relies on before the
 * object is written, so a mistake surfaces as a clear error naming both objects instead of as an
 * object that is silently never collected.
 */
package dev.converge.owner;
