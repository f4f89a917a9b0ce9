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
  /** {@return the path of the desired replica count in spec} */
  String specReplicasPath() default ".spec.replicas";

  /** {@return the path of the observed replica count in status} */
  String statusReplicasPath() default ".status.replicas";

  /** {@return the path of the serialized label selector in status}; empty for none */
  String labelSelectorPath() default "";
}
