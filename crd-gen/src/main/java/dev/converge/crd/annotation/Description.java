package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The description of a property or type. Jackson's {@code @JsonPropertyDescription} and
 * {@code @JsonClassDescription} are read too; this annotation wins when both are present.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.TYPE})
public @interface Description {
  /** {@return the description, as {@code kubectl explain} shows it} */
  String value();
}
