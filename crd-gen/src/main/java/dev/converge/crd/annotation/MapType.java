package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** How a map or nested object is merged ({@code x-kubernetes-map-type}). */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.TYPE})
public @interface MapType {
  /** {@return how the map or object is merged} */
  Kind value();

  /** The values of {@code x-kubernetes-map-type}. */
  enum Kind {
    /** The map is replaced as a whole. */
    ATOMIC,
    /** Each entry is owned separately (the default). */
    GRANULAR
  }
}
