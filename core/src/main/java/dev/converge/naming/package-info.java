/**
 * The API server's naming rules, checked before a write so that a reconciler can report a name it
 * cannot use in the primary's status, in words a user understands, instead of failing on the API
 * server's rejection of a dependent object.
 */
package dev.converge.naming;
