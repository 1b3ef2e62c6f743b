package io.freshet.scheduler.api.support;

import jakarta.validation.ConstraintValidatorContext;

/** Custom constraint violations whose messages may quote what the client sent. */
public final class Violations {

  private Violations() {}

  /** Replaces the constraint's default violation with {@code message}, taken literally. */
  public static void replace(ConstraintValidatorContext context, String message) {
    context.disableDefaultConstraintViolation();
    context.buildConstraintViolationWithTemplate(literal(message)).addConstraintViolation();
  }

  /**
   * Adds a violation of the property at {@code path} (below the validated value) with {@code
   * message}, taken literally; call {@code disableDefaultConstraintViolation} first.
   */
  public static void add(ConstraintValidatorContext context, String path, String message) {
    context
        .buildConstraintViolationWithTemplate(literal(message))
        .addPropertyNode(path)
        .addConstraintViolation();
  }

  /**
   * Escapes what a message template would interpret ({@code {…}}, {@code ${…}}), so that text the
   * client sent is shown as sent and never evaluated.
   */
  static String literal(String message) {
    return message
        .replace("\\", "\\\\")
        .replace("{", "\\{")
        .replace("}", "\\}")
        .replace("$", "\\$");
  }
}
