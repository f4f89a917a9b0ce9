package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Exactly one of the named properties of this type must be set ({@code oneOf} of {@code required}).
 * Use it for alternatives such as {@code image} versus {@code imageRef}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ExactlyOneOf {
  /** {@return the JSON names of the alternative properties} */
  String[] value();
}
