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
      for (var choice : CHOICES.entrySet()) {
        JsonNode value = config.get(choice.getKey());
        if (value != null
            && !value.isNull()
            && !(value.isString() && choice.getValue().contains(value.asString()))) {
          Violations.add(
              context,
              choice.getKey(),
              "must be one of " + String.join(", ", choice.getValue()) + ", was " + value);
          valid = false;
        }
      }
      for (var range : WHOLE_NUMBERS.entrySet()) {
        JsonNode value = config.get(range.getKey());
        if (value != null && !value.isNull() && wholeNumber(value, range.getValue()) == null) {
          Violations.add(
              context,
              range.getKey(),
              "must be a whole number from "
                  + range.getValue()[0]
                  + " to "
                  + range.getValue()[1]
                  + ", was "
                  + value);
          valid = false;
        }
      }
      return valid;
    }

    /** The value as a whole number within {@code [min, max]}, given as a number or as digits. */
    private static Long wholeNumber(JsonNode value, long[] range) {
      long n;
      if (value.isIntegralNumber() && value.canConvertToLong()) {
        n = value.longValue();
      } else if (value.isString() && value.asString().trim().matches("-?\\d{1,12}")) {
        n = Long.parseLong(value.asString().trim());
      } else {
        return null;
      }
      return n >= range[0] && n <= range[1] ? n : null;
    }
  }

  /**
   * Options with a fixed set of values (the worker reads the connector's; the scheduler "hints").
   */
  java.util.Map<String, java.util.List<String>> CHOICES =
      java.util.Map.of(
          "hints", java.util.List.of("respect", "ignore"),
          "robots", java.util.List.of("obey", "ignore"),
          "emit", java.util.List.of("new", "all"));

  /**
   * Numeric connector options and their documented ranges (fetch-worker README, Connector options);
   * the worker checks them again, as a request may come from anywhere.
   */
  java.util.Map<String, long[]> WHOLE_NUMBERS =
      java.util.Map.of(
          "max_pages", new long[] {1, 100},
          "item_limit", new long[] {0, 10_000},
          "window_days", new long[] {0, 3_650},
          "window_ahead_days", new long[] {0, 3_650});
}
