package io.freshet.scheduler.api.sources;

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
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * A source's {@code credentials} in the shape the fetch-worker reads (its {@code
 * CredentialsOpener}): an object with {@code bearer} (a string: the Authorization header), {@code
 * headers} and/or {@code query} (objects of string values). Anything else would be sealed, stored
 * and then silently not sent, so it is refused here, naming the field. Null passes. Messages never
 * quote a value.
 */
@Documented
@Constraint(validatedBy = SourceCredentials.Validator.class)
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@interface SourceCredentials {

  String message() default
      "must be a JSON object with bearer (a string), headers and/or query (objects of strings)";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};

  /** Checks the shape, never the secret values. */
  final class Validator implements ConstraintValidator<SourceCredentials, JsonNode> {

    private static final Set<String> KEYS = Set.of("bearer", "headers", "query");

    @Override
    public boolean isValid(JsonNode credentials, ConstraintValidatorContext context) {
      if (credentials == null || credentials.isNull()) {
        return true;
      }
      if (!credentials.isObject() || credentials.isEmpty()) {
        return false;
      }
      context.disableDefaultConstraintViolation();
      boolean valid = true;
      for (String key : credentials.propertyNames()) {
        JsonNode value = credentials.get(key);
        if (!KEYS.contains(key)) {
          Violations.add(context, key, "is not a credential kind; use bearer, headers or query");
          valid = false;
        } else if (key.equals("bearer")) {
          if (!value.isString() || value.stringValue().isBlank()) {
            Violations.add(context, key, "must be a non-blank string");
            valid = false;
          }
        } else if (!value.isObject() || value.isEmpty()) {
          Violations.add(context, key, "must be a non-empty object of string values");
          valid = false;
        } else {
          for (String name : value.propertyNames()) {
            if (name.isBlank() || !value.get(name).isString()) {
              Violations.add(context, key + "." + name, "must be a string");
              valid = false;
            }
          }
        }
      }
      return valid;
    }
  }
}
