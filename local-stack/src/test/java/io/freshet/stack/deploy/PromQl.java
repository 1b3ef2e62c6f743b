package io.freshet.stack.deploy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression selects, and the label names it matches them on — enough to
 * check alert rules and dashboard queries against the metrics the services expose. Functions,
 * aggregation clauses ({@code by}, {@code without}, {@code on}, {@code ignoring}, {@code group_*}),
 * keywords, numbers, durations, ranges, strings and Grafana variables are not metric names.
 */
final class PromQl {

  private static final Pattern STRING =
      Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
  private static final Pattern GRAFANA_VARIABLE =
      Pattern.compile("\\$\\{?[A-Za-z_][A-Za-z0-9_]*}?");
  private static final Pattern RANGE = Pattern.compile("\\[[^\\]]*]");
  private static final Pattern CLAUSE =
      Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
  private static final Pattern IDENTIFIER =
      Pattern.compile("(?<![\\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*(\\{[^}]*})?\\s*(\\()?");
  private static final Set<String> KEYWORDS =
      Set.of(
          "and",
          "or",
          "unless",
          "by",
          "without",
          "on",
          "ignoring",
          "group_left",
          "group_right",
          "bool",
          "offset",
          "inf",
          "nan",
          "atan2");

  private PromQl() {}

  /** Metric name → label names its selectors match on (empty set: selected by name only). */
  static Map<String, Set<String>> selectors(String expr) {
    String s = STRING.matcher(expr).replaceAll("\"\"");
    s = GRAFANA_VARIABLE.matcher(s).replaceAll("1");
    s = RANGE.matcher(s).replaceAll("");
    s = CLAUSE.matcher(s).replaceAll(" ");
    if (s.matches("(?s).*(^|[^\\w}])\\{.*")) {
      throw new IllegalArgumentException("a selector without a metric name: " + expr);
    }
    Map<String, Set<String>> out = new LinkedHashMap<>();
    Matcher m = IDENTIFIER.matcher(s);
    while (m.find()) {
      String name = m.group(1);
      boolean call = m.group(3) != null && m.group(2) == null;
      if (call || KEYWORDS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
        continue;
      }
      Set<String> labels = out.computeIfAbsent(name, k -> new TreeSet<>());
      if (m.group(2) != null) {
        String body = m.group(2).substring(1, m.group(2).length() - 1);
        for (String matcher : body.split(",")) {
          String label = matcher.split("[=!~]", 2)[0].trim();
          if (!label.isEmpty()) {
            labels.add(label);
          }
        }
      }
    }
    return out;
  }
}
