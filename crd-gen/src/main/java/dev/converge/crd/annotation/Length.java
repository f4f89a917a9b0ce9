package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Length bounds of a string ({@code minLength}, {@code maxLength}); a negative value means
 * unbounded.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.TYPE_USE})
public @interface Length {
  /** {@return the shortest length allowed; negative for no bound} */
  long min() default -1;

  /** {@return the longest length allowed; negative for no bound} */
  long max() default -1;
}
