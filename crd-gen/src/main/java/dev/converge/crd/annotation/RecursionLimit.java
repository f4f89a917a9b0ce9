package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Allows a field whose type refers back to itself (a tree, a linked list). A structural schema
 * cannot be recursive, so the type is expanded {@code depth} times below this field; deeper levels
 * accept any object ({@code x-kubernetes-preserve-unknown-fields}) and are not validated. Without
 * it a cycle is an error.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface RecursionLimit {
  /** {@return how many times the type is expanded below this field} */
  int depth();
}
