package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A field that list and watch requests may filter on with a field selector ({@code kubectl get
 * widgets --field-selector spec.color=red}); the version's {@code selectableFields}. On the custom
 * resource class it needs a {@link #jsonPath()}; on a field of the spec or status (not inside a
 * list or map) the path is the field's own. The field must be a string, integer or boolean; a
 * version holds at most eight.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.FIELD, ElementType.METHOD})
@Repeatable(SelectableFields.class)
public @interface SelectableField {
  /** {@return a simple JSON path into the object, e.g. {@code .spec.color}}; empty on a field */
  String jsonPath() default "";
}
