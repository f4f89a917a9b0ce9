package dev.converge.crd.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A CEL validation rule ({@code x-kubernetes-validations}) on a property or, on a class, on every
 * object of that type. {@code self} is the value; {@code oldSelf} the previous value on update (a
 * transition rule).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.TYPE, ElementType.TYPE_USE})
@Repeatable(Rules.class)
public @interface Rule {
  /** {@return the CEL expression, true when the value is valid} */
  String value();

  /** {@return the message returned when the rule fails}; empty for the server's generic message */
  String message() default "";

  /** {@return a CEL expression that builds the message}; empty for none */
  String messageExpression() default "";

  /**
   * {@return a machine-readable reason: FieldValueInvalid, FieldValueForbidden, FieldValueRequired,
   * FieldValueDuplicate}; empty for the server's default
   */
  String reason() default "";

  /**
   * {@return the JSON path, relative to this property, of the field the error is reported on};
   * empty for this property
   */
  String fieldPath() default "";

  /**
   * For a transition rule (one that reads {@code oldSelf}) on an optional field: also run the rule
   * when the field is being set for the first time or removed, with {@code oldSelf} an optional
   * value ({@code oldSelf.hasValue()}, {@code oldSelf.value()}). Without it a transition rule is
   * skipped then.
   *
   * @return whether the rule also runs when the field is first set or removed
   */
  boolean optionalOldSelf() default false;
}
