package io.freshet.cadence.lab;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** {@code --key value} and {@code --flag} options, checked against the allowed names. */
final class Args {

  private final Map<String, String> values = new HashMap<>();
  private final Set<String> flags = new HashSet<>();

  Args(String[] args, int start, Set<String> valued, Set<String> flagNames) {
    for (int i = start; i < args.length; i++) {
      String a = args[i];
      if (flagNames.contains(a)) {
        flags.add(a);
      } else if (valued.contains(a)) {
        if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
          throw new UsageException(a + ": missing value");
        }
        values.put(a, args[++i]);
      } else {
        Set<String> all = new java.util.TreeSet<>(valued);
        all.addAll(flagNames);
        throw new UsageException("unknown argument '" + a + "'; allowed: " + String.join(" ", all));
      }
    }
  }

  String get(String name, String fallback) {
    return values.getOrDefault(name, fallback);
  }

  String require(String name) {
    String v = values.get(name);
    if (v == null) {
      throw new UsageException(name + " is required");
    }
    return v;
  }

  boolean flag(String name) {
    return flags.contains(name);
  }

  double positiveDouble(String name, String fallback) {
    String v = fallback == null ? require(name) : get(name, fallback);
    try {
      double d = Double.parseDouble(v);
      if (!(d > 0) || Double.isInfinite(d)) {
        throw new NumberFormatException();
      }
      return d;
    } catch (NumberFormatException e) {
      throw new UsageException(name + ": expected a positive number, got '" + v + "'");
    }
  }

  int positiveInt(String name, String fallback) {
    String v = get(name, fallback);
    try {
      int n = Integer.parseInt(v);
      if (n < 1) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException(name + ": expected a positive whole number, got '" + v + "'");
    }
  }
}
