package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The API server keeps properties the schema does not declare ({@code
 * x-kubernetes-preserve-unknown-fields}). Fields typed {@code Object}, {@code JsonNode} or {@code
 * Map<String, Object>} get this automatically.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.TYPE})
public @interface PreserveUnknownFields {}
