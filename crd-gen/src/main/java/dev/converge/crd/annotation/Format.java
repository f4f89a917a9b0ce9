package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The OpenAPI {@code format} of a string or number, for example {@code date-time}, {@code
 * hostname}, {@code cidr}, {@code int64}. It replaces the format derived from the Java type.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.TYPE_USE})
public @interface Format {
  /** {@return the OpenAPI format, e.g. {@code date-time}} */
  String value();
}
