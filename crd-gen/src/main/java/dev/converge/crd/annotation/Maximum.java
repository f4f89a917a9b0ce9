package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The upper bound of a number ({@code maximum}); with {@code exclusive = true} the bound itself is
 * rejected ({@code exclusiveMaximum: true}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.TYPE_USE})
public @interface Maximum {
  /** {@return the upper bound} */
  double value();

  /** {@return whether the bound itself is rejected} */
  boolean exclusive() default false;
}
