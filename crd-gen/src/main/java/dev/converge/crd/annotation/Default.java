package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A default the API server fills in when the property is absent. The value is JSON ({@code "1"},
 * {@code "true"}, {@code "[\"a\"]"}, {@code "{}"}); for string and enum properties plain text is
 * taken as the string itself.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.TYPE_USE})
public @interface Default {
  /** {@return the default, as JSON or, for a string or enum property, as plain text} */
  String value();
}
