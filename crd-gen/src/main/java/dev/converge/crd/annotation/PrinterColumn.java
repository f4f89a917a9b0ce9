package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An additional printer column shown by {@code kubectl get}. On the custom resource class it needs
 * a {@link #jsonPath()}; {@code AGE} from {@code .metadata.creationTimestamp} is a column like any
 * other. On a field of the spec or status (not inside a list or map) the path is the field's own
 * and the type follows the field's schema type when left empty. Class columns come first, then
 * field columns in the schema's (alphabetical) property order, as fabric8's generator orders them.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.FIELD, ElementType.METHOD})
@Repeatable(PrinterColumns.class)
public @interface PrinterColumn {
  /** {@return the column's header, as {@code kubectl get} prints it} */
  String name();

  /** {@return a simple JSON path into the object, e.g. {@code .spec.replicas}}; empty on a field */
  String jsonPath() default "";

  /**
   * {@return one of integer, number, string, boolean, date}; empty means string on a class and the
   * field's schema type on a field (date for date-time strings)
   */
  String type() default "";

  /**
   * {@return one of int32, int64, float, double, byte, date, date-time, password}; empty for none
   */
  String format() default "";

  /** {@return what {@code kubectl explain} and API clients show for the column; empty for none} */
  String description() default "";

  /** {@return 0 to show the column by default}; higher values show it only with {@code -o wide} */
  int priority() default 0;
}
