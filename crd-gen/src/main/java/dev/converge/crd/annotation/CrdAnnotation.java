package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An annotation on the CustomResourceDefinition object itself (not on the custom resources), for
 * example one read by a tool that installs CRDs. On the custom resource class; versions of one CRD
 * must not give one name two values.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Repeatable(CrdAnnotations.class)
public @interface CrdAnnotation {
  /** {@return the annotation's name, e.g. {@code example.com/owner}} */
  String name();

  /** {@return the annotation's value} */
  String value();
}
