package io.freshet.stack.launcher;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * One scrape of a Prometheus text exposition ({@code /actuator/prometheus}): its samples, each a
 * name, labels and a value. Only what the live figures need: no types, no timestamps, no
 * histograms' structure (their series are samples like any other). A line it cannot read is
 * skipped.
 */
record PrometheusText(List<Sample> samples) {

  /** One series' value. */
  record Sample(String name, Map<String, String> labels, double value) {}

  static final PrometheusText EMPTY = new PrometheusText(List.of());

  static PrometheusText parse(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (!line.isBlank() && !line.startsWith("#")) {
        Sample sample = sample(line.strip());
        if (sample != null) {
          samples.add(sample);
        }
      }
    }
    return new PrometheusText(List.copyOf(samples));
  }

  /** The sum of the values of {@code name}'s series (0 if none). */
  double sum(String name) {
    return sum(name, labels -> true);
  }

  /** The sum of the values of {@code name}'s series whose labels pass {@code filter}. */
  double sum(String name, Predicate<Map<String, String>> filter) {
    double total = 0;
    for (Sample s : samples) {
      if (s.name().equals(name) && filter.test(s.labels())) {
        total += s.value();
      }
    }
    return total;
  }

  /** {@code name}'s values summed by the value of {@code label}, in the order first seen. */
  Map<String, Double> by(String name, String label) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (Sample s : samples) {
      if (s.name().equals(name) && s.labels().containsKey(label)) {
        out.merge(s.labels().get(label), s.value(), Double::sum);
      }
    }
    return out;
  }

  boolean has(String name) {
    return samples.stream().anyMatch(s -> s.name().equals(name));
  }

  private static Sample sample(String line) {
    int brace = line.indexOf('{');
    int space = line.indexOf(' ');
    if (space < 0) {
      return null;
    }
    Map<String, String> labels = new LinkedHashMap<>();
    String name;
    int rest;
    if (brace >= 0 && brace < space) {
      name = line.substring(0, brace);
      rest = labels(line, brace + 1, labels);
      if (rest < 0) {
        return null;
      }
    } else {
      name = line.substring(0, space);
      rest = space;
    }
    String[] tail = line.substring(rest).strip().split("\\s+");
    try {
      return new Sample(name, Map.copyOf(labels), Double.parseDouble(tail[0]));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Reads {@code a="x",b="y"}} from {@code i}; the index after the closing brace, or -1. */
  private static int labels(String line, int i, Map<String, String> into) {
    while (i < line.length()) {
      char c = line.charAt(i);
      if (c == '}') {
        return i + 1;
      }
      if (c == ',' || c == ' ') {
        i++;
        continue;
      }
      int eq = line.indexOf('=', i);
      if (eq < 0 || eq + 1 >= line.length() || line.charAt(eq + 1) != '"') {
        return -1;
      }
      String key = line.substring(i, eq);
      StringBuilder value = new StringBuilder();
      int j = eq + 2;
      while (j < line.length() && line.charAt(j) != '"') {
        char v = line.charAt(j);
        if (v == '\\' && j + 1 < line.length()) {
          char next = line.charAt(++j);
          value.append(next == 'n' ? '\n' : next);
        } else {
          value.append(v);
        }
        j++;
      }
      if (j >= line.length()) {
        return -1;
      }
      into.put(key, value.toString());
      i = j + 1;
    }
    return -1;
  }
}
