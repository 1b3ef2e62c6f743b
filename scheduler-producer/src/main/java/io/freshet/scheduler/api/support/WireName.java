package io.freshet.scheduler.api.support;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A string that must be the wire name ({@link WireNames}) of one of {@link #value}'s constants;
 * null passes. The message names the bad value and the allowed ones, and the OpenAPI document lists
 * the allowed ones as the property's enum.
 */
@Documented
@Constraint(validatedBy = WireName.Validator.class)
@Target({ElementType.FIELD, ElementType.PARAMETER})
@Retention(RetentionPolicy.RUNTIME)
public @interface WireName {

  Class<? extends Enum<?>> value();

  String message() default "unknown value";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};

  /** Checks the value against the enum's wire names. */
  final class Validator implements ConstraintValidator<WireName, String> {

    private Class<? extends Enum<?>> type;

    @Override
    public void initialize(WireName annotation) {
      this.type = annotation.value();
    }

    @Override
    public boolean isValid(String value, ConstraintValidatorContext context) {
      if (value == null
          || WireNames.all(type).stream().anyMatch(n -> n.equalsIgnoreCase(value.strip()))) {
        return true;
      }
      Violations.replace(
          context,
          "unknown "
              + WireNames.noun(type)
              + " \""
              + value
              + "\"; allowed values: "
              + WireNames.allowed(type));
      return false;
    }
  }
}
