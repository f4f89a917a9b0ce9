package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the scale subresource on a custom resource class, so {@code kubectl scale} and the
 * HorizontalPodAutoscaler can drive it. Paths are JSON paths such as {@code .spec.replicas}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Scale {
  String specReplicasPath() default ".spec.replicas";

  String statusReplicasPath() default ".status.replicas";

  /** Path of the serialized label selector in status; empty for none. */
  String labelSelectorPath() default "";
}
