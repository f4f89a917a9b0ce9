package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The property accepts an integer or a string ({@code x-kubernetes-int-or-string}), for a field
 * declared as {@code String} or {@code Object}. fabric8's {@code IntOrString} and {@code Quantity}
 * need no annotation.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.TYPE_USE})
public @interface IntegerOrString {}
