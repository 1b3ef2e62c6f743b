package io.freshet.kit.web;

import java.util.List;

/**
 * The checks of a list's paging parameters by record id ({@code limit} and {@code before}, as
 * {@code GET /audit} of the scheduler and of the sink take them), one message per bad one. Pure:
 * the caller collects the messages and answers them in one 400 ({@link ApiException#badRequest}).
 */
public final class PageParams {

  private PageParams() {}

  /** {@code limit}: a whole number from 1 to {@code max}; {@code fallback} when absent. */
  public static int limit(String value, int fallback, int max, List<String> errors) {
    if (value == null) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(value.strip());
      if (n >= 1 && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    errors.add("limit: must be a whole number from 1 to " + max + ", was '" + value + "'");
    return fallback;
  }

  /** {@code before}: a record id (a whole number ≥ 1), or null when absent. */
  public static Long before(String value, List<String> errors) {
    if (value == null) {
      return null;
    }
    try {
      long n = Long.parseLong(value.strip());
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    errors.add(
        "before: must be a record id (a whole number ≥ 1): the previous page's next_before, was '"
            + value
            + "'");
    return null;
  }
}
