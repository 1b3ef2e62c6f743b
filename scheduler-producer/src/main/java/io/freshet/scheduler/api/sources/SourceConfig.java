package io.freshet.scheduler.api.sources;

import io.freshet.cadence.CadenceEngine;
import io.freshet.cadence.config.FieldError;
import io.freshet.cadence.config.InvalidCadenceException;
import io.freshet.scheduler.api.support.Violations;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import tools.jackson.databind.JsonNode;

/**
 * A source's {@code config}: a JSON object whose {@code cadence} the cadence module accepts (one
 * message per bad cadence field, e.g. {@code config.cadence.zone}) and whose {@code
 * retention_days}, if any, is a whole number ≥ 1; null passes.
 */
@Documented
@Constraint(validatedBy = SourceConfig.Validator.class)
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@interface SourceConfig {

  String message() default "must be a JSON object";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};

  /** Asks the cadence module; created by Spring, which passes the engine. */
  final class Validator implements ConstraintValidator<SourceConfig, JsonNode> {

    private final CadenceEngine engine;

    Validator(CadenceEngine engine) {
      this.engine = engine;
    }

    @Override
    public boolean isValid(JsonNode config, ConstraintValidatorContext context) {
      if (config == null || config.isNull()) {
        return true;
      }
      if (!config.isObject()) {
        return false;
      }
      context.disableDefaultConstraintViolation();
      boolean valid = true;
      try {
        engine.parser().parse(config.get("cadence"));
      } catch (InvalidCadenceException e) {
        for (FieldError error : e.errors()) {
          Violations.add(context, error.field(), error.message());
        }
        valid = false;
      }
      JsonNode retention = config.get("retention_days");
      if (retention != null
          && !retention.isNull()
          && (!retention.isIntegralNumber()
              || !retention.canConvertToInt()
              || retention.intValue() < 1)) {
        Violations.add(
            context, "retention_days", "must be a whole number of days ≥ 1, was " + retention);
        valid = false;
      }
      return valid;
    }
  }
}
