/**
 * What an operator needs from RBAC, computed from its controller definitions without starting it:
 * the kinds its informers read, the verbs its strategies send on the kinds it owns, status and
 * finalizer writes, Events and the leader-election Lease. The same {@link
 * dev.converge.rbac.OperatorPermissions} generates the ClusterRole at build time ({@code
 * dev.converge.rbac.build.GenerateRbac}) and lets the running operator check that it still has
 * them.
 */
package dev.converge.rbac;
