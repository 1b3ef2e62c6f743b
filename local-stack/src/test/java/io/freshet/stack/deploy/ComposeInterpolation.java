package io.freshet.stack.deploy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compose's variable interpolation of one string value, as the Compose Specification defines it:
 * {@code $$} is a literal {@code $}; {@code $VAR} and {@code ${VAR}}; {@code ${VAR:-default}}
 * (unset or empty), {@code ${VAR-default}} (unset); {@code ${VAR:?message}}, {@code ${VAR?message}}
 * (required); {@code ${VAR:+replacement}}, {@code ${VAR+replacement}}; defaults and replacements
 * may hold further expressions.
 */
final class ComposeInterpolation {

  /** A required variable ({@code :?} / {@code ?}) was missing. */
  static final class MissingVariableException extends RuntimeException {
    final String variable;

    MissingVariableException(String variable, String message) {
      super(variable + ": " + message);
      this.variable = variable;
    }
  }

  private final Map<String, String> env;
  private final Set<String> referenced = new LinkedHashSet<>();
  private final Map<String, String> required = new LinkedHashMap<>();
  private final List<String> missingRequired = new ArrayList<>();
  private final boolean failOnMissing;

  private ComposeInterpolation(Map<String, String> env, boolean failOnMissing) {
    this.env = env;
    this.failOnMissing = failOnMissing;
  }

  /** An interpolator that throws on a missing required variable. */
  static ComposeInterpolation strict(Map<String, String> env) {
    return new ComposeInterpolation(env, true);
  }

  /** An interpolator that records missing required variables instead of throwing. */
  static ComposeInterpolation lenient(Map<String, String> env) {
    return new ComposeInterpolation(env, false);
  }

  /** Every variable any interpolated value referred to, in order of first use. */
  Set<String> referenced() {
    return referenced;
  }

  /** Required variables ({@code :?}, {@code ?}) and their messages. */
  Map<String, String> required() {
    return required;
  }

  /** Required variables that were missing (lenient mode). */
  List<String> missingRequired() {
    return missingRequired;
  }

  String interpolate(String s) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c != '$') {
        out.append(c);
        i++;
        continue;
      }
      if (i + 1 < s.length() && s.charAt(i + 1) == '$') {
        out.append('$');
        i += 2;
      } else if (i + 1 < s.length() && s.charAt(i + 1) == '{') {
        int end = matchingBrace(s, i + 1);
        out.append(braced(s.substring(i + 2, end)));
        i = end + 1;
      } else {
        int j = i + 1;
        while (j < s.length() && isNameChar(s.charAt(j), j == i + 1)) {
          j++;
        }
        if (j == i + 1) {
          throw new IllegalArgumentException("invalid interpolation format in '" + s + "'");
        }
        String name = s.substring(i + 1, j);
        referenced.add(name);
        out.append(env.getOrDefault(name, ""));
        i = j;
      }
    }
    return out.toString();
  }

  private String braced(String body) {
    int j = 0;
    while (j < body.length() && isNameChar(body.charAt(j), j == 0)) {
      j++;
    }
    if (j == 0) {
      throw new IllegalArgumentException("invalid interpolation format: ${" + body + "}");
    }
    String name = body.substring(0, j);
    String rest = body.substring(j);
    referenced.add(name);
    String value = env.get(name);
    boolean set = value != null;
    boolean nonEmpty = set && !value.isEmpty();
    if (rest.isEmpty()) {
      return set ? value : "";
    }
    if (rest.startsWith(":-")) {
      return nonEmpty ? value : interpolate(rest.substring(2));
    }
    if (rest.startsWith("-")) {
      return set ? value : interpolate(rest.substring(1));
    }
    if (rest.startsWith(":?") || rest.startsWith("?")) {
      boolean colon = rest.startsWith(":?");
      String message = rest.substring(colon ? 2 : 1);
      required.put(name, message);
      if (colon ? nonEmpty : set) {
        return value;
      }
      if (failOnMissing) {
        throw new MissingVariableException(name, message);
      }
      missingRequired.add(name);
      return "";
    }
    if (rest.startsWith(":+")) {
      return nonEmpty ? interpolate(rest.substring(2)) : "";
    }
    if (rest.startsWith("+")) {
      return set ? interpolate(rest.substring(1)) : "";
    }
    throw new IllegalArgumentException("invalid interpolation format: ${" + body + "}");
  }

  private static int matchingBrace(String s, int open) {
    int depth = 0;
    for (int k = open; k < s.length(); k++) {
      char c = s.charAt(k);
      if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        return k;
      }
    }
    throw new IllegalArgumentException("unclosed ${ in '" + s + "'");
  }

  private static boolean isNameChar(char c, boolean first) {
    return c == '_'
        || (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || (!first && c >= '0' && c <= '9');
  }
}
