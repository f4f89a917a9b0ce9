package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.annotation.Repeatable;

/**
 * An additional printer column shown by {@code kubectl get}, declared on the custom resource class.
 * {@code AGE} from {@code .metadata.creationTimestamp} is a column like any other.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Repeatable(PrinterColumns.class)
public @interface PrinterColumn {
  String name();

  /** A simple JSON path into the object, e.g. {@code .spec.replicas}. */
  String jsonPath();

  /** One of integer, number, string, boolean, date. */
  String type() default "string";

  /** One of int32, int64, float, double, byte, date, date-time, password; empty for none. */
  String format() default "";

  String description() default "";

  /** 0 shows the column by default; higher values only with {@code -o wide}. */
  int priority() default 0;
}
