package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The lower bound of a number ({@code minimum}); with {@code exclusive = true} the bound itself is
 * rejected ({@code exclusiveMinimum: true}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.TYPE_USE})
public @interface Minimum {
  /** {@return the lower bound} */
  double value();

  /** {@return whether the bound itself is rejected} */
  boolean exclusive() default false;
}
