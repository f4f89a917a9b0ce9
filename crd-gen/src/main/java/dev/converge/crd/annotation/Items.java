package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Size bounds of a list or set ({@code minItems}, {@code maxItems}) or, on a map, of its number of
 * entries ({@code minProperties}, {@code maxProperties}); a negative value means unbounded.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.TYPE_USE})
public @interface Items {
  /** {@return the fewest items or entries allowed; negative for no bound} */
  long min() default -1;

  /** {@return the most items or entries allowed; negative for no bound} */
  long max() default -1;
}
