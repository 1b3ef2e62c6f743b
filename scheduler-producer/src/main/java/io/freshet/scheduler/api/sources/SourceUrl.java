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

/** A source URL as {@link SourceUrls#host} accepts it; null passes. */
@Documented
@Constraint(validatedBy = SourceUrl.Validator.class)
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@interface SourceUrl {

  String message() default "must be an absolute http or https URL";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};

  /** Checks the URL. */
  final class Validator implements ConstraintValidator<SourceUrl, String> {
    @Override
    public boolean isValid(String url, ConstraintValidatorContext context) {
      if (url == null) {
        return true;
      }
      try {
        SourceUrls.host(url.strip());
        return true;
      } catch (IllegalArgumentException e) {
        Violations.replace(context, e.getMessage());
        return false;
      }
    }
  }
}
