/**
 * Stand-ins that README snippets may use without declaring them: a small custom resource ({@link
 * dev.converge.docscheck.given.Widget}) and its parts. Every snippet imports this package, so a
 * README can show a reconciler of widgets without first defining a widget.
 */
package dev.converge.docscheck.given;
