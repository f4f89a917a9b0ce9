package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A label on the CustomResourceDefinition object itself (not on the custom resources), for example
 * {@code app.kubernetes.io/part-of}. On the custom resource class; versions of one CRD must not
 * give one name two values.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Repeatable(CrdLabels.class)
public @interface CrdLabel {
  /** {@return the label's name, e.g. {@code app.kubernetes.io/part-of}} */
  String name();

  /** {@return the label's value} */
  String value();
}
