package io.freshet.scheduler.api.sources;

import io.freshet.scheduler.api.support.SecretRedactor;
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
import java.util.List;

/**
 * A request must not store the mask the API shows in place of a secret ({@link SecretRedactor}). An
 * update first puts the stored secrets back where it sends the mask it was shown ({@link
 * SecretRedactor#restore}, in {@code SourceCommands}), so what is left here is a mask with no
 * stored secret behind it (a creation, a new key, a URL moved to another server). One message per
 * place, naming it ({@code url}, {@code config.headers.X-Api-Key}).
 */
@Documented
@Constraint(validatedBy = NoRedactionMask.Validator.class)
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@interface NoRedactionMask {

  String message() default "holds the redaction mask";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};

  /** Looks for the mask in the URL's query and the config. */
  final class Validator implements ConstraintValidator<NoRedactionMask, SourceRequest> {
    @Override
    public boolean isValid(SourceRequest request, ConstraintValidatorContext context) {
      List<SecretRedactor.Masked> masked =
          SecretRedactor.maskedFields(request.url(), request.config());
      if (masked.isEmpty()) {
        return true;
      }
      context.disableDefaultConstraintViolation();
      masked.forEach(m -> Violations.add(context, m.path(), m.message()));
      return false;
    }
  }
}
