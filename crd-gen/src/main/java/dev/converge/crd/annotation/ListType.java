package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How a list is merged by server-side apply and strategic merge ({@code x-kubernetes-list-type}).
 * {@code MAP} needs {@link #keys()}: properties of the items that identify an entry ({@code
 * x-kubernetes-list-map-keys}); each key must be required or have a default.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface ListType {
  /** {@return how the list is merged} */
  Kind value();

  /** {@return the properties of the items that identify an entry, for {@code MAP}} */
  String[] keys() default {};

  /** The values of {@code x-kubernetes-list-type}. */
  enum Kind {
    /** The list is replaced as a whole. */
    ATOMIC,
    /** Scalar items, unique; each item has its own owner. */
    SET,
    /** Object items identified by {@link ListType#keys()}. */
    MAP
  }
}
