/**
 * Annotations that shape the generated schema: validation (required, bounds, lengths, items,
 * pattern, format, allowed values, CEL rules), defaults, Kubernetes extensions (list and map types,
 * preserve unknown fields, int-or-string), printer columns, the scale subresource and the cut-off
 * for recursive types.
 */
package dev.converge.crd.annotation;
